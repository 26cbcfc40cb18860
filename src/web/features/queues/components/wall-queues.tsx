/**
 * The wall's queue rows (`?queues=1`): one card per queue, as the room's main figures. The cards
 * share the screen's height left below the header in a grid chosen for their count, and every size
 * inside a card follows the card (container units), so 1 to 12 queues fit any screen from 720p to
 * 4K without scrolling.
 */
import { QUEUE_DEFINITIONS } from '../../../../contract/queues.js';
import { CriticalIcon, WarningIcon } from '../../../components/ui/icons.js';
import { useNow } from '../../../lib/clock.js';
import { formatDuration } from '../../../lib/format.js';
import type { QueueRow, QueuesFeed } from '../../../lib/api/use-queues.js';

/** Columns for a count of cards, so that their grid stays close to the screen's shape. */
const columnsFor = (count: number): number => (count <= 3 ? Math.max(1, count) : count === 4 ? 2 : count <= 6 ? 3 : 4);

const percent = (share: number | null) => (share === null ? '—' : `${Math.round(share * 100)}\u00a0%`);

const Figure = ({ label, value, title }: { label: string; value: string | number; title?: string }) => (
  <div className="flex min-w-0 flex-col" title={title}>
    <dt className="truncate text-[length:min(1.5rem,4cqi,6cqh)] text-muted">{label}</dt>
    <dd className="truncate text-[length:min(3.5rem,9cqi,13cqh)] leading-none font-bold tabular-nums">{value}</dd>
  </div>
);

const QueueCard = ({ row }: { row: QueueRow }) => {
  const now = useNow();
  const { queue } = row;
  const level = queue.today.serviceLevel;
  const below = level !== null && level < queue.serviceLevelTarget;
  const far = below && level < queue.serviceLevelTarget - 0.1;
  const since = queue.now.oldestWaitingSince;
  const needed = queue.agentsNeeded;
  const short = needed ? needed.agents - queue.now.agents.staffed : 0;
  const tone = far ? 'text-danger' : below ? 'text-warn' : '';
  return (
    // The card is the container its sizes follow; its padding is inside, so that it follows the card too.
    <li
      aria-label={queue.name}
      className={`min-h-0 min-w-0 overflow-hidden rounded-lg border-4 [container-type:size] ${
        far ? 'border-danger bg-danger-bg' : below ? 'border-warn bg-warn-bg' : 'border-line bg-panel'
      }`}
    >
      <div className="flex h-full flex-col justify-between gap-[2cqh] p-[min(1.5rem,3cqi,5cqh)]">
        <h2 className="truncate text-[length:min(2.5rem,7cqi,11cqh)] leading-tight font-bold">{queue.name}</h2>
        <div className="flex min-w-0 items-center gap-[3cqi]">
          <p className={`shrink-0 text-[length:min(7rem,18cqi,26cqh)] leading-none font-extrabold tabular-nums ${tone}`}>
            {percent(level)}
          </p>
          <div className="min-w-0 text-[length:min(1.75rem,4.5cqi,7cqh)] leading-tight">
            <p className={`truncate font-semibold ${below ? tone : 'text-muted'}`}>
              {below ? (
                <>
                  {far ? (
                    <CriticalIcon aria-hidden className="inline align-[-0.125em]" />
                  ) : (
                    <WarningIcon aria-hidden className="inline align-[-0.125em]" />
                  )}{' '}
                  Below target
                </>
              ) : (
                'today, on target'
              )}
            </p>
            <p className="truncate text-muted">
              target {percent(queue.serviceLevelTarget)} in {queue.answerWithinSeconds}&nbsp;s
            </p>
          </div>
        </div>
        <dl className="grid grid-cols-3 gap-[3cqi]">
          <Figure label="Waiting" value={queue.now.waiting} title={QUEUE_DEFINITIONS.waiting} />
          <Figure
            label="Longest wait"
            value={since === undefined ? '—' : formatDuration(now - Date.parse(since))}
            title={QUEUE_DEFINITIONS.longestWaitSeconds}
          />
          <Figure
            label="Free / staffed"
            value={`${queue.now.agents.available}/${queue.now.agents.staffed}`}
            title={QUEUE_DEFINITIONS.agents}
          />
        </dl>
        <p className={`truncate text-[length:min(1.5rem,4cqi,6cqh)] ${short > 0 ? 'font-semibold text-warn' : 'text-muted'}`}>
          {needed
            ? `${needed.agents} ${needed.agents === 1 ? 'agent' : 'agents'} needed${short > 0 ? ` · ${short} short` : ''}`
            : 'Agents needed: not known yet'}{' '}
          · {queue.today.abandoned} abandoned today
        </p>
      </div>
    </li>
  );
};

export const WallQueues = ({ feed, only }: { feed: QueuesFeed; only: readonly string[] }) => {
  const rows = only.length === 0 ? feed.rows : feed.rows.filter((row) => only.includes(row.queue.queueID));
  if (feed.status !== 'ready')
    return (
      <p className="text-[2.5rem] text-muted">
        {feed.status === 'pending' ? 'Loading the queues…' : 'The queues are not available right now.'}
      </p>
    );
  if (rows.length === 0) return <p className="text-[2.5rem] text-muted">This provider has no queues.</p>;
  const columns = columnsFor(rows.length);
  return (
    <ul
      aria-label="Queues"
      className="grid min-h-0 flex-1 gap-4"
      style={{
        gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))`,
        gridTemplateRows: `repeat(${Math.ceil(rows.length / columns)}, minmax(0, 1fr))`,
      }}
    >
      {rows.map((row) => (
        <QueueCard key={`${row.providerID}/${row.queue.queueID}`} row={row} />
      ))}
    </ul>
  );
};
