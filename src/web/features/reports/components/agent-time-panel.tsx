/** How agents spent the range: the busiest agents' time as stacked bars, every agent in the table below, and its CSV. */
import { useMemo } from 'react';
import type { AgentReport, AgentTime } from '../../../../contract/reports.js';
import { Legend } from '../../../components/charts/legend.js';
import { Button } from '../../../components/ui/button.js';
import { PagedFiguresTable } from '../../../components/ui/figures-table.js';
import { Panel } from '../../../components/ui/panel.js';
import { csvFileName, downloadCsv } from '../../../lib/csv.js';
import { formatSeconds, formatShare } from '../../../lib/format.js';
import { agentsToCsv } from '../utils/report-csv.js';
import { AGENT_ROW_PX, AGENT_STATES, AgentTimeChart, agentLabel, TexturePattern } from './agent-time-chart.js';

/** The most agents drawn as bars (longest logged in first); the table lists every one. */
export const MOST_AGENT_BARS = 20;

/** Longest logged in first, then as the service sorted them (by name). */
export const byLoggedIn = (agents: readonly AgentTime[]): AgentTime[] =>
  agents
    .map((agent, order) => ({ agent, order }))
    .sort((a, b) => b.agent.loggedInSeconds - a.agent.loggedInSeconds || a.order - b.order)
    .map(({ agent }) => agent);

const legendItems = AGENT_STATES.map((state) => ({
  label: state.label,
  swatch: (
    <g>
      <defs>
        <TexturePattern id={`legend-${state.key}`} color={state.color} texture={state.texture} />
      </defs>
      <rect x="1" y="1" width="22" height="14" fill={`url(#legend-${state.key})`} stroke={state.color} strokeWidth="1" />
    </g>
  ),
}));

export const AgentTimePanel = ({ report }: { report: AgentReport }) => {
  const sorted = useMemo(() => byLoggedIn(report.agents), [report]);
  const drawn = useMemo(() => sorted.slice(0, MOST_AGENT_BARS), [sorted]);
  const summary =
    sorted.length === 0
      ? 'No agent in this range.'
      : drawn.length === sorted.length
        ? `${sorted.length} agents, longest logged in first.`
        : `${sorted.length} agents: the ${drawn.length} longest logged in are drawn, and the table lists every one.`;
  return (
    <Panel
      title="Agents' time"
      actions={
        <Button
          size="sm"
          onClick={() => downloadCsv(agentsToCsv(report.agents), csvFileName('agents', Date.now()))}
          disabled={report.agents.length === 0}
        >
          Download CSV
        </Button>
      }
    >
      <div className="flex flex-col gap-3">
        <p className="text-sm">{summary}</p>
        {drawn.length > 0 ? (
          <>
            <Legend items={legendItems} />
            <figure
              aria-label={`Stacked bar chart of each agent's time by state, ${drawn.length} agents. ${summary}`}
              style={{ height: drawn.length * AGENT_ROW_PX + 32 }}
            >
              <AgentTimeChart agents={drawn} />
            </figure>
          </>
        ) : null}
        <PagedFiguresTable
          caption="Each agent's time by state and calls over the range, longest logged in first"
          columns={[
            'Agent',
            'Logged in',
            ...AGENT_STATES.map((state) => state.label),
            'Answered',
            'Unanswered',
            'Placed',
            'Talk',
            'Average handle',
            'Occupancy',
          ]}
          empty="No agent in this range."
          rowCount={sorted.length}
          row={(i) => {
            const agent = sorted[i] as AgentTime;
            return {
              key: agent.subscriberID,
              header: <span className="whitespace-nowrap">{agentLabel(agent)}</span>,
              cells: [
                formatSeconds(agent.loggedInSeconds),
                ...AGENT_STATES.map((state) => formatSeconds(agent[state.key])),
                agent.answeredCalls,
                agent.unansweredCalls,
                agent.outboundPlaced,
                formatSeconds(agent.talkSeconds),
                formatSeconds(agent.averageHandleSeconds),
                formatShare(agent.occupancy),
              ],
            };
          }}
        />
      </div>
    </Panel>
  );
};
