/** "Updated 2 s ago", with pause / resume and refresh now. */
import { Button } from '../../../components/ui/button.js';
import { PauseIcon, PlayIcon, RefreshIcon } from '../../../components/ui/icons.js';
import { DEFAULT_POLL_MS } from '../../../lib/api/calls-query.js';
import type { CallsFeed } from '../../../lib/api/use-calls-feed.js';
import { formatAge } from '../../../lib/format.js';
import { usePolling } from '../../../lib/polling-context.js';
import type { Freshness } from '../hooks/use-freshness.js';

const dot: Record<Freshness['level'], string> = {
  live: 'bg-talking',
  paused: 'bg-ended',
  stale: 'bg-missed',
  pending: 'bg-ended',
};

const label = (freshness: Freshness) => {
  switch (freshness.level) {
    case 'pending':
      return 'Connecting…';
    case 'paused':
      return `Paused · data ${formatAge(freshness.ageMs)} old`;
    case 'stale':
      return `Not updating · data ${formatAge(freshness.ageMs)} old`;
    case 'live':
      return `Live · updated ${formatAge(freshness.ageMs)} ago`;
  }
};

/** How the calls arrive, said beside how fresh they are: pushed, or polled and why. */
const delivery = (feed: CallsFeed, intervalMs: number) => {
  if (feed.mode === 'streaming') return { text: 'pushed', title: 'Changes are pushed by the service as they happen.' };
  if (feed.mode === 'connecting') return undefined;
  const why = feed.streamReason ? `Live push is unavailable (${feed.streamReason}); retrying it in the background.` : undefined;
  return { text: `polling every ${formatAge(intervalMs)}`, title: why };
};

export const FreshnessStatus = ({
  feed,
  freshness,
  intervalMs = DEFAULT_POLL_MS,
}: {
  feed: CallsFeed;
  freshness: Freshness;
  intervalMs?: number;
}) => {
  const { paused, setPaused } = usePolling();
  const how = paused || freshness.level === 'pending' ? undefined : delivery(feed, intervalMs);
  return (
    <div className="flex flex-wrap items-center gap-2">
      {/*
       * As wide as "Live · updated 59 s ago · pushed" from the first paint, on a line of its own on a
       * phone: the buttons do not move, nor wrap onto a new line, when "Connecting…" gives way to it.
       */}
      <span className="flex min-w-[16rem] items-center gap-2 text-sm tabular max-sm:basis-full" data-freshness={freshness.level}>
        <span aria-hidden="true" className={`inline-block h-2.5 w-2.5 rounded-full ${dot[freshness.level]}`} />
        {label(freshness)}
        {how ? (
          <span className="text-muted" title={how.title} data-delivery={feed.mode}>
            · {how.text}
            {how.title && feed.mode === 'polling' ? <span className="sr-only"> {how.title}</span> : null}
          </span>
        ) : null}
      </span>
      <Button size="sm" onClick={() => setPaused(!paused)} aria-pressed={paused}>
        {paused ? <PlayIcon /> : <PauseIcon />}
        {paused ? 'Resume' : 'Pause'}
      </Button>
      <Button size="sm" onClick={feed.refetch} disabled={feed.isFetching}>
        <RefreshIcon />
        Refresh
      </Button>
    </div>
  );
};
