/**
 * The live view's agent board: totals per state that filter it, a search, a sort, and a grid of
 * agents that renders only the rows in view, so 2,000 agents cost what 100 do. Choosing an agent
 * shows their calls in the table below.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useDeferredValue, useId, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { Link, useLocation } from 'react-router';
import type { AgentState } from '../../../../contract/agents.js';
import { NO_QUEUE } from '../../../../contract/queue-filter.js';
import { Panel } from '../../../components/ui/panel.js';
import { SearchInput } from '../../../components/ui/search-input.js';
import type { AgentQueues } from '../../../lib/agent-queues.js';
import type { AgentBoardFeed, BoardAgent } from '../../../lib/api/use-agent-board.js';
import { afterLayout } from '../../../lib/virtualizer-after-layout.js';
import { measureAgentsToCommit } from '../../../lib/perf-marks.js';
import { useElementSize } from '../../../lib/use-element-size.js';
import { AGENT_SORTS, filterAgents, sortAgents, type AgentSort } from '../utils/agent-view.js';
import { AgentTile } from './agent-tile.js';
import { AgentTotalsFilter } from './agent-totals.js';

const TILE_MIN_WIDTH = 200;
/** The height of the line that names an agent's queues. */
const QUEUES_LINE = 16;

const ROW_HEIGHT = 84;
const GAP = 8;

const AgentGrid = ({
  agents,
  selected,
  onSelect,
  queuesOf,
}: {
  agents: readonly BoardAgent[];
  selected: string | undefined;
  onSelect: (entry: BoardAgent) => void;
  queuesOf: AgentQueues | undefined;
}) => {
  // A line more for the queues each agent answers, where the provider has queues.
  const rowHeight = queuesOf ? ROW_HEIGHT + QUEUES_LINE : ROW_HEIGHT;
  const scroller = useRef<HTMLDivElement>(null);
  // Empty (the agents are loading), the grid draws nothing from its width: no need to render it before the paint.
  const { width } = useElementSize(scroller, { width: 1024, height: 320 }, { beforePaint: agents.length > 0 });
  const columns = Math.max(1, Math.floor((width - 2 * GAP + GAP) / (TILE_MIN_WIDTH + GAP)));
  const rows = Math.ceil(agents.length / columns);
  // The app does not run React Compiler; the virtualizer is read afresh each render.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: rows,
    getScrollElement: () => scroller.current,
    estimateSize: () => rowHeight + GAP,
    overscan: 2,
    ...afterLayout,
    initialRect: { width: 1024, height: 320 },
  });
  const items = virtualizer.getVirtualItems();
  const firstRow = items[0]?.index ?? 0;
  const lastRow = items.at(-1)?.index ?? -1;
  const before = items[0]?.start ?? 0;
  const after = Math.max(0, virtualizer.getTotalSize() - (items.at(-1)?.end ?? 0));
  const shown = agents.slice(firstRow * columns, (lastRow + 1) * columns);

  return (
    <div ref={scroller} className="relative max-h-[22rem] overflow-auto rounded-md will-change-scroll">
      <ul
        aria-label="Agents"
        className="grid p-2"
        style={{
          gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))`,
          gap: GAP,
          paddingTop: before + GAP,
          paddingBottom: after + GAP,
          gridAutoRows: rowHeight,
        }}
      >
        {shown.map((entry, i) => (
          <li
            key={`${entry.providerID}/${entry.agent.subscriberID}`}
            aria-setsize={agents.length}
            aria-posinset={firstRow * columns + i + 1}
          >
            <AgentTile
              entry={entry}
              selected={selected === entry.agent.subscriberID}
              onSelect={onSelect}
              queues={queuesOf ? (queuesOf.names.get(`${entry.providerID}/${entry.agent.subscriberID}`) ?? '') : undefined}
            />
          </li>
        ))}
      </ul>
    </div>
  );
};

export const AgentBoard = ({
  board,
  selected,
  onSelect,
  queuesOf,
}: {
  board: AgentBoardFeed;
  /** The subscriber whose calls the table shows, if any. */
  selected: string | undefined;
  onSelect: (entry: BoardAgent) => void;
  /** The queues each agent answers, where the providers have queues. */
  queuesOf?: AgentQueues | undefined;
}) => {
  const [states, setStates] = useState<ReadonlySet<AgentState>>(new Set());
  const [queue, setQueue] = useState('');
  const [search, setSearch] = useState('');
  const [sort, setSort] = useState<AgentSort>('extension');
  const id = useId();
  const { search: address } = useLocation();
  const wallSearch = useMemo(() => {
    const params = new URLSearchParams(address);
    params.set('agents', '1');
    return `?${params.toString()}`;
  }, [address]);
  // Typing stays responsive at 2,000 agents: the grid follows a moment later.
  const deferredSearch = useDeferredValue(search);
  const shown = useMemo(() => {
    const inQueue = queue === '' || !queuesOf ? board.agents : board.agents.filter((entry) => queuesOf.answers(entry, queue));
    return sortAgents(filterAgents(inQueue, states, deferredSearch), sort);
  }, [board.agents, states, deferredSearch, sort, queue, queuesOf]);
  useLayoutEffect(measureAgentsToCommit, [board.agents]);
  const toggle = useCallback(
    (state: AgentState) =>
      setStates((before) => {
        const next = new Set(before);
        if (!next.delete(state)) next.add(state);
        return next;
      }),
    [],
  );

  return (
    <Panel title="Agents" actions={<AgentTotalsFilter totals={board.totals} chosen={states} onToggle={toggle} />}>
      <div className="flex flex-col gap-2">
        <div className="flex flex-wrap items-end gap-3">
          <label htmlFor={`${id}-search`} className="flex flex-col gap-1 text-sm font-medium">
            Find an agent
            <SearchInput
              id={`${id}-search`}
              value={search}
              onSearch={setSearch}
              placeholder="Name or extension"
              className="w-56 rounded-md border border-line bg-panel px-2 py-1 font-normal"
            />
          </label>
          <label htmlFor={`${id}-sort`} className="flex flex-col gap-1 text-sm font-medium">
            Sort by
            <select
              id={`${id}-sort`}
              value={sort}
              onChange={(event) => setSort(event.target.value as AgentSort)}
              className="rounded-md border border-line bg-panel px-2 py-1 font-normal"
            >
              {AGENT_SORTS.map((option) => (
                <option key={option.id} value={option.id}>
                  {option.label}
                </option>
              ))}
            </select>
          </label>
          {queuesOf && queuesOf.queues.length > 0 ? (
            <label htmlFor={`${id}-queue`} className="flex flex-col gap-1 text-sm font-medium">
              Queue
              <select
                id={`${id}-queue`}
                value={queue}
                onChange={(event) => setQueue(event.target.value)}
                className="rounded-md border border-line bg-panel px-2 py-1 font-normal"
              >
                <option value="">Every queue</option>
                {queuesOf.queues.map((option) => (
                  <option key={option.id} value={option.id}>
                    {option.name}
                  </option>
                ))}
                <option value={NO_QUEUE}>No queue</option>
              </select>
            </label>
          ) : null}
          <Link
            to={{ pathname: '/wallboard', search: wallSearch }}
            className="pb-1 text-sm text-accent underline underline-offset-2 focus-visible:outline-2 focus-visible:outline-accent"
          >
            Show on the wallboard
          </Link>
          <p className="pb-1 text-sm text-muted">
            {board.status === 'ready'
              ? `${shown.length} of ${board.agents.length} agents${selected ? ' · the table shows the chosen agent’s calls' : ' · choose one to see their calls'}`
              : board.status === 'error'
                ? `The agent board is not available: ${board.error?.detail ?? 'the service did not answer'}`
                : 'Loading the agents…'}
          </p>
        </div>
        {board.status === 'ready' && shown.length === 0 ? (
          <p className="rounded-md border border-dashed border-line px-3 py-4 text-sm text-muted">
            {board.agents.length === 0 ? 'The provider lists no subscribers.' : 'No agent matches the filter.'}
          </p>
        ) : (
          <AgentGrid agents={shown} selected={selected} onSelect={onSelect} queuesOf={queuesOf} />
        )}
      </div>
    </Panel>
  );
};
