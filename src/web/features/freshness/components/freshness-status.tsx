/** "Updated 2 s ago", with pause / resume and refresh now. */
import { Button } from '../../../components/ui/button.js';
import { PauseIcon, PlayIcon, RefreshIcon } from '../../../components/ui/icons.js';
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

export const FreshnessStatus = ({ feed, freshness }: { feed: CallsFeed; freshness: Freshness }) => {
  const { paused, setPaused } = usePolling();
  return (
    <div className="flex flex-wrap items-center gap-2">
      <span className="flex items-center gap-2 text-sm tabular" data-freshness={freshness.level}>
        <span aria-hidden="true" className={`inline-block h-2.5 w-2.5 rounded-full ${dot[freshness.level]}`} />
        {label(freshness)}
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
