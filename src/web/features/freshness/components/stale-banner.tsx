/**
 * Shown when the feed stopped: what is on screen, how old it is, and why. Recovery is automatic.
 * While live but slower (a provider's event socket is down, its calls polled), it says so quietly.
 */
import { Banner } from '../../../components/ui/banner.js';
import type { CallsFeed } from '../../../lib/api/use-calls-feed.js';
import { useNow } from '../../../lib/clock.js';
import { formatAge, formatClockTime } from '../../../lib/format.js';
import type { Freshness } from '../hooks/use-freshness.js';

/** Why the data on screen is not live, in a sentence, with the problem's code where there is one. */
export const staleReason = (feed: CallsFeed): string => {
  const problem = feed.error ?? feed.unhealthy?.problem;
  if (problem) return `${problem.detail.replace(/\.$/, '')} (${problem.code}).`;
  // Without a problem the service answers, but from a snapshot its phone system no longer refreshes.
  return feed.mode === 'streaming'
    ? 'The live stream from the service went silent.'
    : `The service answers, but its phone system has not delivered new calls for ${formatAge(feed.snapshotAgeMs)}.`;
};

export const StaleBanner = ({ feed, freshness, timeZone }: { feed: CallsFeed; freshness: Freshness; timeZone: string }) => {
  const now = useNow();
  if (freshness.level === 'live' && feed.degraded !== undefined)
    return (
      <Banner tone="info" title="Live, with slower updates">
        {feed.degraded}
      </Banner>
    );
  if (freshness.level !== 'stale') return null;
  const asOf = now - freshness.ageMs;
  const reason = staleReason(feed);
  return (
    <Banner
      tone="warn"
      title={
        feed.status === 'ready'
          ? `Not live: showing calls as of ${formatClockTime(asOf, timeZone)} (${formatAge(freshness.ageMs)} ago)`
          : 'Cannot load calls'
      }
    >
      {reason} Retrying automatically.
    </Banner>
  );
};
