/**
 * The row a supervisor reads first: one line per queue with who waits and for how long, who is
 * free, service level today against the queue's own target (drawn, and said in words when below),
 * speed of answer, abandons, and the agents it needs now against those staffed. A queue's name is a
 * button: it shows only that queue's calls on the whole page (several may be chosen).
 */
import { useLayoutEffect, type ReactNode } from 'react';
import { NO_QUEUE } from '../../../../contract/queue-filter.js';
import { QUEUE_DEFINITIONS, type QueueFigures, type QueuePeriod, type UnqueuedFigures } from '../../../../contract/queues.js';
import { SERVICE_LEVEL_DEFINITIONS } from '../../../../contract/service-levels.js';
import { CriticalIcon, WarningIcon } from '../../../components/ui/icons.js';
import { Panel } from '../../../components/ui/panel.js';
import { useNow } from '../../../lib/clock.js';
import { formatDuration } from '../../../lib/format.js';
import type { QueueRow, QueuesFeed } from '../../../lib/api/use-queues.js';
import { measureQueuesToCommit } from '../../../lib/perf-marks.js';
import { useWideScreen } from '../../../lib/use-wide-screen.js';

const UNKNOWN = '—';
const percent = (share: number | null) => (share === null ? UNKNOWN : `${Math.round(share * 100)}\u00a0%`);
const seconds = (value: number | null) => (value === null ? UNKNOWN : formatDuration(value * 1000));

/** The longest wait now, ticking with the page's clock from the oldest waiting call's start. */
const LongestWait = ({ since }: { since: string | undefined }) => {
  const now = useNow();
  if (since === undefined) return <span className="text-muted">{UNKNOWN}</span>;
  return <span className="tabular-nums">{formatDuration(now - Date.parse(since))}</span>;
};

/** Service level today as a bar with the queue's target marked on it; below the target it says so in words. */
export const LevelAgainstTarget = ({ level, target }: { level: number | null; target: number | undefined }) => {
  const below = level !== null && target !== undefined && level < target;
  const far = below && level < target - 0.1;
  return (
    <div className="flex min-w-[9.5rem] flex-col gap-1">
      <div className="flex items-baseline gap-2">
        <span className={`font-semibold tabular-nums ${far ? 'text-danger' : below ? 'text-warn' : ''}`}>{percent(level)}</span>
        {below ? (
          <span className={`text-xs font-medium ${far ? 'text-danger' : 'text-warn'}`}>
            {far ? (
              <CriticalIcon aria-hidden className="inline align-[-0.125em]" />
            ) : (
              <WarningIcon aria-hidden className="inline align-[-0.125em]" />
            )}{' '}
            Below target
          </span>
        ) : null}
      </div>
      {target === undefined ? null : (
        <div className="relative h-1.5 w-32 rounded-full bg-line" aria-hidden>
          <div
            className={`h-1.5 rounded-full ${far ? 'bg-danger' : below ? 'bg-warn' : 'bg-available'}`}
            style={{ width: `${Math.round((level ?? 0) * 100)}%` }}
          />
          <div
            className="absolute -top-1 h-3.5 w-0.5 bg-ink"
            style={{ left: `calc(${Math.round(target * 100)}% - 1px)` }}
            title={`Target ${percent(target)}`}
          />
        </div>
      )}
      {target === undefined ? null : <span className="text-xs text-muted">target {percent(target)}</span>}
    </div>
  );
};

const Needed = ({ queue }: { queue: QueueFigures }) => {
  const needed = queue.agentsNeeded;
  if (!needed)
    return (
      <span className="text-muted" title="No call of this queue has been answered and ended yet today: no handle time to go by.">
        {UNKNOWN}
      </span>
    );
  const staffed = queue.now.agents.staffed;
  const short = needed.agents - staffed;
  return (
    <div className="flex flex-col">
      <span className="tabular-nums">
        <span className="font-semibold">{needed.agents}</span> needed · {staffed} staffed
      </span>
      {short > 0 ? (
        <span className="text-xs font-medium text-warn">
          <WarningIcon aria-hidden className="inline align-[-0.125em]" /> {short} short
        </span>
      ) : null}
    </div>
  );
};

const Abandoned = ({ today }: { today: QueuePeriod }) => (
  <span className="tabular-nums">
    {today.abandoned} <span className="text-muted">({percent(today.abandonRate)})</span>
  </span>
);

const Cell = ({ children, className = '' }: { children: ReactNode; className?: string }) => (
  <td className={`px-3 py-2 align-top ${className}`}>{children}</td>
);

const QueueName = ({
  name,
  detail,
  selected,
  onToggle,
}: {
  name: string;
  detail?: string;
  selected: boolean;
  onToggle: () => void;
}) => (
  <th scope="row" className="px-3 py-2 text-left align-top font-normal">
    <button
      type="button"
      aria-pressed={selected}
      onClick={onToggle}
      className={`rounded px-1 text-left font-semibold underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-accent ${selected ? 'text-accent' : ''}`}
    >
      {selected ? '✓ ' : ''}
      {name}
    </button>
    {detail ? <div className="px-1 text-xs text-muted">{detail}</div> : null}
  </th>
);

const columns = [
  { label: 'Queue', title: undefined },
  { label: 'Waiting', title: QUEUE_DEFINITIONS.waiting },
  { label: 'Longest wait', title: QUEUE_DEFINITIONS.longestWaitSeconds },
  { label: 'Agents free / staffed', title: QUEUE_DEFINITIONS.agents },
  {
    label: 'Service level today',
    title: `${SERVICE_LEVEL_DEFINITIONS.serviceLevel} With the queue's own answer time; the mark is its target.`,
  },
  { label: 'Avg. answer', title: SERVICE_LEVEL_DEFINITIONS.averageAnswerSeconds },
  { label: 'Abandoned today', title: SERVICE_LEVEL_DEFINITIONS.abandoned },
  { label: 'Agents needed now', title: QUEUE_DEFINITIONS.agentsNeeded },
] as const;

const QueueLine = ({
  row,
  selected,
  onToggle,
  showProvider,
}: {
  row: QueueRow;
  selected: boolean;
  onToggle: () => void;
  showProvider: boolean;
}) => {
  const { queue } = row;
  const { now, today } = queue;
  return (
    <tr className={`border-t border-line ${selected ? 'bg-raised' : ''}`}>
      <QueueName
        name={queue.name}
        detail={`${showProvider ? `${row.providerID} · ` : ''}within ${queue.answerWithinSeconds} s · ${today.offered} offered today`}
        selected={selected}
        onToggle={onToggle}
      />
      <Cell className={`text-lg font-semibold tabular-nums ${now.waiting > 0 ? '' : 'text-muted'}`}>{now.waiting}</Cell>
      <Cell>
        <LongestWait since={now.oldestWaitingSince} />
      </Cell>
      <Cell className="tabular-nums">
        <span className="font-semibold">{now.agents.available}</span> / {now.agents.staffed}
        {now.agents.onCall > 0 ? <div className="text-xs text-muted">{now.agents.onCall} on a call</div> : null}
      </Cell>
      <Cell>
        <LevelAgainstTarget level={today.serviceLevel} target={queue.serviceLevelTarget} />
      </Cell>
      <Cell className="tabular-nums">{seconds(today.averageAnswerSeconds)}</Cell>
      <Cell>
        <Abandoned today={today} />
      </Cell>
      <Cell>
        <Needed queue={queue} />
      </Cell>
    </tr>
  );
};

const NoQueueLine = ({ figures, selected, onToggle }: { figures: UnqueuedFigures; selected: boolean; onToggle: () => void }) => (
  <tr className={`border-t border-line ${selected ? 'bg-raised' : ''}`}>
    <QueueName
      name="No queue"
      detail={`direct calls · ${figures.today.offered} offered today`}
      selected={selected}
      onToggle={onToggle}
    />
    <Cell className={`text-lg font-semibold tabular-nums ${figures.now.waiting > 0 ? '' : 'text-muted'}`}>
      {figures.now.waiting}
    </Cell>
    <Cell>
      <LongestWait since={figures.now.oldestWaitingSince} />
    </Cell>
    <Cell className="text-muted">{UNKNOWN}</Cell>
    <Cell>
      <LevelAgainstTarget level={figures.today.serviceLevel} target={undefined} />
    </Cell>
    <Cell className="tabular-nums">{seconds(figures.today.averageAnswerSeconds)}</Cell>
    <Cell>
      <Abandoned today={figures.today} />
    </Cell>
    <Cell className="text-muted">{UNKNOWN}</Cell>
  </tr>
);

/** On a narrow screen, each queue as a card: the figures a supervisor reads first, then the rest in a line. */
const QueueCard = ({ row, selected, onToggle }: { row: QueueRow; selected: boolean; onToggle: () => void }) => {
  const { queue } = row;
  const { now, today } = queue;
  return (
    <li className={`flex flex-col gap-2 border-t border-line px-4 py-3 first:border-t-0 ${selected ? 'bg-raised' : ''}`}>
      <div className="flex items-start justify-between gap-3">
        <button
          type="button"
          aria-pressed={selected}
          onClick={onToggle}
          className={`rounded text-left font-semibold underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-accent ${selected ? 'text-accent' : ''}`}
        >
          {selected ? '✓ ' : ''}
          {queue.name}
        </button>
        <LevelAgainstTarget level={today.serviceLevel} target={queue.serviceLevelTarget} />
      </div>
      <dl className="grid grid-cols-3 gap-2 text-sm">
        <div>
          <dt className="text-xs text-muted">Waiting</dt>
          <dd className="text-lg font-semibold tabular-nums">{now.waiting}</dd>
        </div>
        <div>
          <dt className="text-xs text-muted">Longest wait</dt>
          <dd className="text-lg">
            <LongestWait since={now.oldestWaitingSince} />
          </dd>
        </div>
        <div>
          <dt className="text-xs text-muted">Free / staffed</dt>
          <dd className="text-lg tabular-nums">
            {now.agents.available} / {now.agents.staffed}
          </dd>
        </div>
      </dl>
      <p className="text-xs text-muted">
        Avg. answer {seconds(today.averageAnswerSeconds)} · abandoned {today.abandoned} ({percent(today.abandonRate)}) ·{' '}
        {queue.agentsNeeded
          ? `${queue.agentsNeeded.agents} ${queue.agentsNeeded.agents === 1 ? 'agent' : 'agents'} needed`
          : 'agents needed not known yet'}
      </p>
    </li>
  );
};

/** The sum of the providers' calls in no queue, as one line. */
const unqueuedTotal = (feed: QueuesFeed): UnqueuedFigures | undefined => {
  const [first, ...rest] = feed.unqueued;
  if (!first) return undefined;
  if (rest.length === 0) return first.figures;
  // Several providers: their waiting callers add up; the oldest wait is the oldest of all. The day's shares are left to each provider's own view.
  const all = feed.unqueued.map((entry) => entry.figures);
  const oldest = all.flatMap((f) => f.now.oldestWaitingSince ?? []).sort()[0];
  const sum = (pick: (f: UnqueuedFigures) => number) => all.reduce((total, f) => total + pick(f), 0);
  return {
    now: {
      waiting: sum((f) => f.now.waiting),
      longestWaitSeconds: Math.max(...all.map((f) => f.now.longestWaitSeconds)),
      ...(oldest === undefined ? {} : { oldestWaitingSince: oldest }),
      talking: sum((f) => f.now.talking),
    },
    today: {
      ...first.figures.today,
      offered: sum((f) => f.today.offered),
      abandoned: sum((f) => f.today.abandoned),
      serviceLevel: null,
      abandonRate: null,
      averageAnswerSeconds: null,
    },
  };
};

export const QueuesPanel = ({
  feed,
  selected,
  onSelect,
  showProvider,
}: {
  feed: QueuesFeed;
  /** The queue IDs the page shows (`none` for the calls in no queue); empty: every call. */
  selected: readonly string[];
  onSelect: (ids: string[]) => void;
  showProvider: boolean;
}) => {
  useLayoutEffect(measureQueuesToCommit, [feed.rows]);
  // Only the layout in use is rendered: cards on a narrow screen, the table on a wide one.
  const wide = useWideScreen();
  // A provider without queues (or a service that has none to tell) shows no panel at all: nothing moves when the figures arrive.
  if (feed.rows.length === 0) return null;
  const toggle = (id: string) => onSelect(selected.includes(id) ? selected.filter((other) => other !== id) : [...selected, id]);
  const unqueued = unqueuedTotal(feed);
  const belowTarget = feed.rows.filter(
    ({ queue }) => queue.today.serviceLevel !== null && queue.today.serviceLevel < queue.serviceLevelTarget,
  ).length;
  return (
    <Panel
      title="Queues"
      className="min-w-0"
      actions={
        <span className="text-sm text-muted" aria-live="polite">
          {feed.status === 'pending'
            ? 'Loading…'
            : feed.status === 'error'
              ? 'Not available right now'
              : `${feed.rows.length} ${feed.rows.length === 1 ? 'queue' : 'queues'}${belowTarget > 0 ? ` · ${belowTarget} below target` : ''}${feed.partial ? ' · some providers did not answer' : ''}`}
        </span>
      }
    >
      {wide ? null : (
        <ul aria-label="Queues" className="-m-4 max-h-[26rem] overflow-auto ">
          {feed.rows.map((row) => (
            <QueueCard
              key={`${row.providerID}/${row.queue.queueID}`}
              row={row}
              selected={selected.includes(row.queue.queueID)}
              onToggle={() => toggle(row.queue.queueID)}
            />
          ))}
        </ul>
      )}
      {wide ? (
        <div className="-m-4 max-h-[26rem] overflow-auto">
          <table className="w-full min-w-[56rem] border-collapse text-sm">
            <caption className="sr-only">
              Each queue now and today. Choose a queue's name to show only its calls on this page.
            </caption>
            <thead className="sticky top-0 z-10 bg-panel text-left text-xs text-muted uppercase">
              <tr>
                {columns.map((column) => (
                  <th key={column.label} scope="col" className="px-3 py-2 font-medium" title={column.title}>
                    {column.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {feed.rows.map((row) => (
                <QueueLine
                  key={`${row.providerID}/${row.queue.queueID}`}
                  row={row}
                  showProvider={showProvider}
                  selected={selected.includes(row.queue.queueID)}
                  onToggle={() => toggle(row.queue.queueID)}
                />
              ))}
              {unqueued ? (
                <NoQueueLine figures={unqueued} selected={selected.includes(NO_QUEUE)} onToggle={() => toggle(NO_QUEUE)} />
              ) : null}
            </tbody>
          </table>
        </div>
      ) : null}
    </Panel>
  );
};
