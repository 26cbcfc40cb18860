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
const DIGITS = /^[0-9]{1,15}$/;
/** An extension of digits as its number; NaN for any other, which only the collator orders. */
const extensionNumber = (extension: string) => (DIGITS.test(extension) ? Number(extension) : NaN);

/** Extensions in numeric order (the collator's), then IDs: what settles every other order's ties. */
const byExtension = (a: BoardAgent, b: BoardAgent) =>
  (a.agent.extension === b.agent.extension ? 0 : numeric.compare(a.agent.extension, b.agent.extension)) || text.compare(a.agent.subscriberID, b.agent.subscriberID);
const byName = (a: BoardAgent, b: BoardAgent) => text.compare(agentName(a.agent), agentName(b.agent)) || byExtension(a, b);

/** Each state's place in an order. */
type StateRank = Record<AgentState, number>;
const ranks = (order: readonly AgentState[]): StateRank => Object.fromEntries(order.map((state, i) => [state, i])) as StateRank;
const BOARD_RANK = ranks(BOARD_STATES);
/**
 * What a wall that cannot show everyone shows first: who is being rung (longest first), then who is
 * on a call (longest first), then who is free, then who is away.
 */
const ATTENTION_RANK = ranks(['ringing', 'on-call', 'available', 'offline', 'inactive']);

interface Keyed {
  entry: BoardAgent;
  rank: number;
  since: string;
  extension: number;
}

/**
 * By state (in `rank`'s order, the longest in it first; all alike without one), then extension.
 * A 2,000-agent sort makes some 20,000 comparisons: each agent's keys are read once, and the
 * collator (ICU, a few hundred ns a call, and 12 % of the wallboard's time when every comparison
 * went through it) settles only equal numbers and extensions that are not digits. `since` is a UTC
 * timestamp with milliseconds, the contract's one format, so as text it sorts as time.
 */
const sortByState = (agents: readonly BoardAgent[], rank: StateRank | undefined): BoardAgent[] => {
  const keyed = agents.map(
    (entry): Keyed => ({ entry, rank: rank ? rank[entry.agent.state] : 0, since: rank ? entry.agent.since : '', extension: extensionNumber(entry.agent.extension) }),
  );
  // A NaN difference (an extension that is not digits) is falsy, and falls through to the collator.
  keyed.sort((a, b) => a.rank - b.rank || (a.since < b.since ? -1 : a.since > b.since ? 1 : 0) || a.extension - b.extension || byExtension(a.entry, b.entry));
  return keyed.map((key) => key.entry);
};

/** The board's orders: by extension (as numbers), by name, or by state with the longest in it first. */
export const sortAgents = (agents: readonly BoardAgent[], sort: AgentSort): BoardAgent[] =>
  sort === 'name' ? [...agents].sort(byName) : sortByState(agents, sort === 'state' ? BOARD_RANK : undefined);

/** A wall's order when not everyone fits: the ring that has gone on longest first, then the longest calls. */
export const sortByAttention = (agents: readonly BoardAgent[]): BoardAgent[] => sortByState(agents, ATTENTION_RANK);

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
