/**
 * The simulated agents' states over a run, derived by the agent board's own rules from what the
 * run tells of each agent as it changes, and handed out stretch by stretch on the clock.
 */
import { deriveAgents, type Board } from '../agent-states.js';
import type { PastAgentState } from '../phone-system.js';
import type { AgentChange } from './call-center.js';

export class AgentStateTrail {
  /** Each agent's last derivation, as the board keeps it. */
  private readonly boards = new Map<string, Board>();
  /** Each agent's last row: its state, its `since` in simulated time, and its `at` on the clock. */
  private readonly last = new Map<string, { state: string; since: number; at: number }>();
  private rows: PastAgentState[] = [];
  private opened = false;

  constructor(private readonly toClock: (simTime: number) => number) {}

  /**
   * Derives the agent's state as the board would at this change; a new state (or a state that began
   * anew, such as the next call ringing) is a row at its `since`, never before the agent's last row.
   */
  readonly observe = ({ subscriber, calls, at }: AgentChange): void => {
    const id = subscriber.providerSubscriberID;
    // The run tells every change, so the board looked at this agent just before this instant: a call
    // that rings them now rings from now, even if its caller waited in a queue first.
    const previous = this.boards.get(id);
    const board = deriveAgents([subscriber], calls, previous && { at, agents: previous.agents }, at);
    this.boards.set(id, board);
    const status = board.agents.get(id);
    if (!status) return;
    const was = this.last.get(id);
    if (was && was.state === status.state && was.since === status.since) return;
    const row: PastAgentState = {
      subscriberID: id,
      at: Math.max(this.toClock(status.since), was ? was.at + 1 : -Infinity),
      state: status.state,
      firstName: status.firstName,
      lastName: status.lastName,
      extension: status.extension,
    };
    this.last.set(id, { state: status.state, since: status.since, at: row.at });
    this.rows.push(row);
  };

  /**
   * The rows before `through` not handed out yet. The first stretch opens at `from` with each
   * agent's state then: what the run derived before it (its warm-up) is summed up in that one row.
   */
  take(from: number, through: number): PastAgentState[] {
    if (this.opened) return this.splitAt(through);
    // Before the range, only each agent's latest row matters.
    const latest = new Map<string, PastAgentState>();
    const inRange: PastAgentState[] = [];
    for (const row of this.rows) {
      if (row.at < from) latest.set(row.subscriberID, row);
      else inRange.push(row);
    }
    if (through <= from) {
      this.rows = [...latest.values(), ...inRange];
      return [];
    }
    this.opened = true;
    this.rows = inRange;
    const taken = this.splitAt(through);
    const openedAt = new Set(taken.filter((row) => row.at === from).map((row) => row.subscriberID));
    const opening = [...latest.values()].filter((row) => !openedAt.has(row.subscriberID)).map((row) => ({ ...row, at: from }));
    return [...opening, ...taken];
  }

  /** Hands out the rows before `through`, keeps the rest. */
  private splitAt(through: number): PastAgentState[] {
    const taken = this.rows.filter((row) => row.at < through);
    this.rows = this.rows.filter((row) => row.at >= through);
    return taken;
  }
}
