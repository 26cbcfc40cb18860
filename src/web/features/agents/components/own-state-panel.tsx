/**
 * An agent's own line, on their desk: the state as icon, word and colour, how long they have been in
 * it, whom they are on the phone with, and today's figures. Usually one line; an agent placing calls
 * as several subscribers sees each.
 */
import type { AgentBoardFeed, BoardAgent } from '../../../lib/api/use-agent-board.js';
import { Panel } from '../../../components/ui/panel.js';
import { formatDuration } from '../../../lib/format.js';
import { agentName, agentStateLabel } from '../utils/agent-view.js';
import { AgentStateIcon, agentTone } from './agent-icons.js';
import { Party, StateTimer } from './agent-tile.js';

const Figure = ({ term, value }: { term: string; value: string }) => (
  <div className="flex flex-col">
    <dt className="text-xs text-muted">{term}</dt>
    <dd className="text-xl font-semibold tabular">{value}</dd>
  </div>
);

const OwnLine = ({ entry }: { entry: BoardAgent }) => {
  const { agent } = entry;
  return (
    <li className="flex flex-col gap-3 py-2 sm:flex-row sm:items-center sm:justify-between">
      <div className="flex min-w-0 flex-col gap-1">
        <p className="text-sm text-muted">
          <span className="font-medium text-ink">{agentName(agent)}</span> · ext. {agent.extension}
        </p>
        <p className={`flex items-center gap-2 text-2xl font-semibold ${agentTone[agent.state]}`}>
          <AgentStateIcon state={agent.state} />
          {agentStateLabel[agent.state]}
          <span className="text-base font-normal text-muted">
            for <StateTimer since={agent.since} />
          </span>
        </p>
        {agent.callID === undefined ? null : (
          <p className="flex min-w-0 text-sm">
            <Party agent={agent} />
          </p>
        )}
      </div>
      <dl className="grid grid-cols-3 gap-4 sm:gap-6">
        <Figure term="Calls today" value={String(agent.callsToday)} />
        <Figure term="Missed today" value={String(agent.missedToday)} />
        <Figure term="Talk time today" value={formatDuration(agent.talkSecondsToday * 1000)} />
      </dl>
    </li>
  );
};

export const OwnStatePanel = ({ agents, status }: { agents: readonly BoardAgent[]; status: AgentBoardFeed['status'] }) => (
  <Panel title="My state">
    {agents.length > 0 ? (
      <ul aria-label="My phone lines" className="divide-y divide-line">
        {agents.map((entry) => (
          <OwnLine key={`${entry.providerID}/${entry.agent.subscriberID}`} entry={entry} />
        ))}
      </ul>
    ) : status === 'pending' ? (
      <p className="text-sm text-muted">Loading…</p>
    ) : status === 'error' ? (
      <p className="text-sm text-muted">Your state cannot be read right now; it shows again by itself.</p>
    ) : (
      <p className="text-sm">
        The phone system does not list your line on the board, so your state cannot be shown. Calls you place and take still
        appear below.
      </p>
    )}
  </Panel>
);
