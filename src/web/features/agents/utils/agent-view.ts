/** How the agent board reads: each state's words and order, the board's filters, sorts and search. */
import { AGENT_STATES, type Agent, type AgentState, type AgentTotals, TOTAL_KEY } from '../../../../contract/agents.js';
import { formatPhoneNumber } from '../../../lib/format.js';
import type { BoardAgent } from '../../../lib/api/use-agent-board.js';

export const agentStateLabel: Record<AgentState, string> = {
  available: 'Available',
  ringing: 'Ringing',
  'on-call': 'On a call',
  offline: 'Offline',
  inactive: 'Inactive',
};

/** The states in the order a supervisor reads them: who can take a call, who is being rung, who is busy, who is away. */
export const BOARD_STATES: readonly AgentState[] = ['available', 'ringing', 'on-call', 'offline', 'inactive'];

export const totalOf = (totals: AgentTotals, state: AgentState): number => totals[TOTAL_KEY[state]];

export const isAgentState = (value: string): value is AgentState => (AGENT_STATES as readonly string[]).includes(value);

export const agentName = (agent: Pick<Agent, 'firstName' | 'lastName' | 'subscriberID'>): string =>
  [agent.firstName, agent.lastName].filter(Boolean).join(' ') || agent.subscriberID;

/** "Ada B.": what fits a wall's small tile. */
export const shortAgentName = (agent: Pick<Agent, 'firstName' | 'lastName' | 'subscriberID'>): string =>
  agent.firstName ? `${agent.firstName}${agent.lastName ? ` ${agent.lastName.slice(0, 1)}.` : ''}` : agentName(agent);

/** Whom the agent is on the phone with: the caller's name, else the number. */
export const partyOf = (agent: Agent): string | undefined => {
  if (agent.callID === undefined) return undefined;
  if (agent.remoteName) return agent.remoteName;
  return agent.remoteNumber ? formatPhoneNumber(agent.remoteNumber) : 'a withheld number';
};

export type AgentSort = 'extension' | 'name' | 'state';
export const AGENT_SORTS: readonly { id: AgentSort; label: string }[] = [
  { id: 'extension', label: 'Extension' },
  { id: 'name', label: 'Name' },
  { id: 'state', label: 'State, longest first' },
];

/** One collator for every comparison: \`localeCompare\` with options builds one per call, which a 2,000-agent sort cannot afford. */
const numeric = new Intl.Collator(undefined, { numeric: true });
const text = new Intl.Collator();
const byExtension = (a: BoardAgent, b: BoardAgent) =>
  numeric.compare(a.agent.extension, b.agent.extension) || text.compare(a.agent.subscriberID, b.agent.subscriberID);
const byName = (a: BoardAgent, b: BoardAgent) => text.compare(agentName(a.agent), agentName(b.agent)) || byExtension(a, b);
const stateRank = (state: AgentState) => BOARD_STATES.indexOf(state);
/** By state in the board's order, the longest in it first: the ring that has gone on longest leads the ringing. */
const byState = (a: BoardAgent, b: BoardAgent) =>
  stateRank(a.agent.state) - stateRank(b.agent.state) || a.agent.since.localeCompare(b.agent.since) || byExtension(a, b);

/**
 * What a wall that cannot show everyone shows first: who is being rung (longest first), then who is
 * on a call (longest first), then who is free, then who is away.
 */
const ATTENTION: readonly AgentState[] = ['ringing', 'on-call', 'available', 'offline', 'inactive'];
export const byAttention = (a: BoardAgent, b: BoardAgent) =>
  ATTENTION.indexOf(a.agent.state) - ATTENTION.indexOf(b.agent.state) || a.agent.since.localeCompare(b.agent.since) || byExtension(a, b);

export const sortAgents = (agents: readonly BoardAgent[], sort: AgentSort): BoardAgent[] =>
  [...agents].sort(sort === 'name' ? byName : sort === 'state' ? byState : byExtension);

/** The agents in the chosen states (all when none is chosen) whose name, extension or ID contains the search. */
export const filterAgents = (agents: readonly BoardAgent[], states: ReadonlySet<AgentState>, search: string): BoardAgent[] => {
  const needle = search.trim().toLowerCase();
  return agents.filter(({ agent }) => {
    if (states.size > 0 && !states.has(agent.state)) return false;
    if (needle === '') return true;
    return [agentName(agent), agent.extension, agent.subscriberID].some((text) => text.toLowerCase().includes(needle));
  });
};

export interface GridFit {
  columns: number;
  rows: number;
  /** Tile size in px. */
  width: number;
  height: number;
  /** Tiles that fit; fewer than asked when even the smallest tile leaves some out. */
  shown: number;
}

/**
 * The largest tiles of the given aspect that fit `count` into `width` × `height` (px, `gap`
 * between tiles), not smaller than `minHeight`: below it, as many of that size as fit.
 */
export const fitGrid = (width: number, height: number, count: number, { aspect, gap, minHeight, maxHeight }: { aspect: number; gap: number; minHeight: number; maxHeight: number }): GridFit => {
  const layout = (tileHeight: number) => {
    const tileWidth = tileHeight * aspect;
    const columns = Math.max(1, Math.floor((width + gap) / (tileWidth + gap)));
    const rows = Math.max(0, Math.floor((height + gap) / (tileHeight + gap)));
    return { columns, rows, capacity: columns * rows };
  };
  let tileHeight = Math.max(minHeight, Math.min(maxHeight, height));
  // The tile shrinks a pixel at a time: at most a few hundred steps, and only when the area or the count changes.
  while (tileHeight > minHeight && layout(tileHeight).capacity < count) tileHeight -= 1;
  const { columns, rows, capacity } = layout(tileHeight);
  // Widened into what is left over, but not so far that a few tiles turn into banners.
  const tileWidth = Math.min(tileHeight * aspect * 1.5, Math.max(tileHeight * aspect, (width - gap * (columns - 1)) / columns));
  return { columns, rows, width: tileWidth, height: tileHeight, shown: Math.min(count, capacity) };
};
