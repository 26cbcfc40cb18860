/** Says plainly which queues the page shows, with the way back to every call. */
import type { QueueRow } from '../../../lib/api/use-queues.js';
import { scopeNames } from '../utils/queue-view.js';

export const QueueScopeLine = ({
  ids,
  rows,
  onClear,
}: {
  ids: readonly string[];
  rows: readonly QueueRow[];
  onClear: () => void;
}) => {
  if (ids.length === 0) return null;
  const names = scopeNames(ids, rows);
  return (
    <div
      role="status"
      className="flex flex-wrap items-center gap-3 rounded-md border border-accent/50 bg-raised px-4 py-2 text-sm"
    >
      <span>
        Showing only <strong>{names.join(', ')}</strong>: tiles, chart, agents, calls and callers to call back.
      </span>
      <button
        type="button"
        onClick={onClear}
        className="rounded border border-line px-2 py-0.5 font-medium hover:bg-panel focus-visible:outline-2 focus-visible:outline-accent"
      >
        Show every queue
      </button>
    </div>
  );
};
