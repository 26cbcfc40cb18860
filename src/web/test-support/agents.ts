/** Agents and boards for component tests; override what the test is about. */
import type { Agent } from '../../contract/agents.js';
import { totalsOf } from '../../contract/agents.js';
import type { AgentBoardFeed, BoardAgent } from '../lib/api/use-agent-board.js';

/**
 * When the fixtures' states began: a minute before the tests load, one instant for every agent, so a
 * tile reads about 1:01 whatever the day (a fixed date read against the real clock grew into hours).
 */
const SINCE = new Date(Date.now() - 61_000).toISOString();

export const agent = (subscriberID: string, overrides: Partial<Agent> = {}): Agent => ({
  subscriberID,
  firstName: subscriberID.toUpperCase(),
  lastName: 'Agent',
  extension: subscriberID.replace(/\D/g, '') || '100',
  state: 'available',
  since: SINCE,
  callsToday: 0,
  missedToday: 0,
  talkSecondsToday: 0,
  ...overrides,
});

export const boardOf = (agents: Agent[], providerID = 'pbx'): AgentBoardFeed => ({
  status: 'ready',
  agents: agents.map((a): BoardAgent => ({ providerID, agent: a })),
  totals: totalsOf(agents),
  dayStart: '2026-11-26T00:00:00.000Z',
});
