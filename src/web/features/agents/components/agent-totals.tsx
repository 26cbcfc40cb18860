/** The count of agents in each state, each a toggle that shows only those agents (none pressed: everyone). */
import type { AgentState, AgentTotals } from '../../../../contract/agents.js';
import { agentStateLabel, BOARD_STATES, totalOf } from '../utils/agent-view.js';
import { AgentStateIcon, agentTone } from './agent-icons.js';

export const AgentTotalsFilter = ({
  totals,
  chosen,
  onToggle,
}: {
  totals: AgentTotals;
  chosen: ReadonlySet<AgentState>;
  onToggle: (state: AgentState) => void;
}) => (
  <div role="group" aria-label="Agents per state: show only" className="flex flex-wrap gap-1.5">
    {BOARD_STATES.map((state) => {
      const pressed = chosen.has(state);
      return (
        <button
          key={state}
          type="button"
          aria-pressed={pressed}
          onClick={() => onToggle(state)}
          className={`inline-flex items-center gap-1.5 rounded-full border px-2.5 py-0.5 text-sm font-semibold focus-visible:outline-2 focus-visible:outline-accent ${agentTone[state]} ${pressed ? 'border-current bg-raised' : 'border-line hover:bg-raised'}`}
        >
          <AgentStateIcon state={state} />
          <span className="text-ink">{agentStateLabel[state]}</span> <span className="tabular">{totalOf(totals, state)}</span>
        </button>
      );
    })}
  </div>
);

/** The wall's totals: large, read from across the room. */
export const WallAgentTotals = ({ totals }: { totals: AgentTotals }) => (
  <ul aria-label="Agents per state" className="flex flex-wrap gap-x-5 gap-y-1 text-[1.25rem] font-semibold">
    {BOARD_STATES.map((state) => (
      <li key={state} className={`flex items-center gap-2 ${agentTone[state]}`}>
        <AgentStateIcon state={state} />
        <span className="text-ink">{agentStateLabel[state]}</span> <span className="tabular">{totalOf(totals, state)}</span>
      </li>
    ))}
  </ul>
);
