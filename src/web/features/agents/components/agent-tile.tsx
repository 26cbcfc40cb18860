/**
 * One agent on the board: name, extension, state as icon, word and colour, the time in that state
 * ticking, and whom they are on the phone with. Only the timer reads the ticking clock, and a tile
 * re-renders only when its agent's record changes (the board keeps unchanged records' objects).
 */
import { memo, useMemo } from 'react';
import type { Agent } from '../../../../contract/agents.js';
import type { BoardAgent } from '../../../lib/api/use-agent-board.js';
import { useNow } from '../../../lib/clock.js';
import { formatDuration } from '../../../lib/format.js';
import { InboundIcon, OutboundIcon } from '../../live-calls/components/call-icons.js';
import { agentName, agentStateLabel, partyOf, shortAgentName } from '../utils/agent-view.js';
import { agentBorder, AgentStateIcon, agentTone } from './agent-icons.js';

/** Time in the state, never below zero (a provider's clock may run a little ahead). */
export const StateTimer = ({ since }: { since: string }) => {
  const start = useMemo(() => Date.parse(since), [since]);
  const now = useNow();
  return <span className="tabular">{formatDuration(Math.max(0, now - start))}</span>;
};

/** Whom the agent is on the phone with, the direction as icon and (for screen readers) word. */
export const Party = ({ agent }: { agent: Agent }) => {
  const party = partyOf(agent);
  if (party === undefined) return null;
  return (
    <span className="flex min-w-0 items-center gap-1">
      {agent.isOutbound ? <OutboundIcon /> : <InboundIcon />}
      <span className="sr-only">{agent.isOutbound ? 'to' : 'from'}</span>
      <span className="truncate">{party}</span>
    </span>
  );
};

/** A tile of the live view's board: a button that shows the agent's calls in the table. */
export const AgentTile = memo(function AgentTile({
  entry,
  selected,
  onSelect,
  queues,
}: {
  entry: BoardAgent;
  selected: boolean;
  onSelect: (entry: BoardAgent) => void;
  /** The names of the queues they answer, as one line (a string, so an unchanged line keeps the tile as it was). */
  queues?: string | undefined;
}) {
  const { agent } = entry;
  return (
    <button
      type="button"
      aria-pressed={selected}
      onClick={() => onSelect(entry)}
      className={`flex h-full w-full min-w-0 flex-col justify-between gap-0.5 rounded-md border border-l-4 border-line ${agentBorder[agent.state]} bg-panel px-2 py-1.5 text-left text-sm hover:bg-raised focus-visible:outline-2 focus-visible:outline-accent ${selected ? 'ring-2 ring-accent' : ''}`}
    >
      <span className="flex min-w-0 items-baseline justify-between gap-2">
        <span className="truncate font-medium">{agentName(agent)}</span>
        <span className="shrink-0 text-xs text-muted tabular">
          <span className="sr-only">extension </span>
          {agent.extension}
        </span>
      </span>
      <span className={`flex items-center gap-1 text-xs font-semibold ${agentTone[agent.state]}`}>
        <AgentStateIcon state={agent.state} />
        {agentStateLabel[agent.state]}
        <span className="sr-only">for</span> <StateTimer since={agent.since} />
      </span>
      <span className="flex min-w-0 text-xs text-muted">
        {agent.callID === undefined ? (
          <span className="truncate">
            {agent.callsToday} {agent.callsToday === 1 ? 'call' : 'calls'} today
            {agent.missedToday > 0 ? ` · ${agent.missedToday} missed` : ''}
          </span>
        ) : (
          <Party agent={agent} />
        )}
      </span>
      {queues === undefined ? null : (
        <span className="truncate text-xs text-muted" title={queues === '' ? 'In no queue' : `Queues: ${queues}`}>
          <span className="sr-only">queues: </span>
          {queues === '' ? 'No queue' : queues}
        </span>
      )}
    </button>
  );
});

/** What a wall's tile has room for besides the name, icon and timer: the extension, and the state's word. */
export interface WallTileRoom {
  extension: boolean;
  word: boolean;
}

/**
 * A wall's tile: the same facts in less room. Its text is sized in em from the tile's height (set
 * on the board), so a board of 300 agents and one of 20 read alike from across the room; where the
 * tile is narrow the name keeps its room, and the icon's shape tells the state (the totals above
 * pair each icon with its word; screen readers get the word either way).
 */
export const WallAgentTile = memo(function WallAgentTile({ entry, room }: { entry: BoardAgent; room: WallTileRoom }) {
  const { agent } = entry;
  return (
    <div
      className={`flex h-full min-w-0 flex-col justify-center gap-[0.1em] rounded-md border border-l-[0.3em] border-line ${agentBorder[agent.state]} bg-panel px-[0.45em] leading-tight`}
    >
      <span className="flex min-w-0 items-baseline justify-between gap-[0.4em]">
        <span className="truncate font-semibold">{shortAgentName(agent)}</span>
        {room.extension ? <span className="shrink-0 text-[0.85em] text-muted tabular">{agent.extension}</span> : null}
      </span>
      <span className={`flex min-w-0 items-center gap-[0.3em] text-[0.9em] font-semibold ${agentTone[agent.state]}`}>
        <AgentStateIcon state={agent.state} />
        <span className={room.word ? 'truncate' : 'sr-only'}>{agentStateLabel[agent.state]}</span>
        <span className="ml-auto">
          <StateTimer since={agent.since} />
        </span>
      </span>
    </div>
  );
});
