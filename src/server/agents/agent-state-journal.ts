/**
 * Journals the board's changes of agent state for the reports: one row per change of an agent's
 * state or `since`, batched per board update, written in the background so the board never waits
 * for the database nor fails with it. A batch that fails is kept and written again; rows are
 * idempotent on (agent, at), so a batch written twice, or by two instances around a change of
 * leader, is written once.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.js';
import type { AgentStateChange } from '../history/report-journal.js';
import type { AgentStatus } from '../providers/agent-states.js';

/** How long after a failed write the journal tries again. */
export const JOURNAL_RETRY_MS = 5000;

export interface AgentStateJournalOptions {
  providerID: string;
  clock: Clock;
  /** Whether this instance writes the journal now: alone, or as the cluster's leader of the provider. */
  writes: () => boolean;
  write: (changes: readonly AgentStateChange[]) => Promise<void>;
  log: FastifyBaseLogger;
  retryMs?: number;
}

/** What was last journaled for an agent: the board's state and `since`, and the row's `at`. */
interface Journaled {
  state: string;
  since: number;
  at: number;
  names: Pick<AgentStateChange, 'firstName' | 'lastName' | 'extension'>;
}

export class AgentStateJournal {
  private readonly journaled = new Map<string, Journaled>();
  /** When this instance began writing (its start, or its taking over as leader): no row of its own is older. */
  private writingSince: number | undefined;
  private pending: AgentStateChange[] = [];
  private writing: Promise<void> | undefined;
  private retry: NodeJS.Timeout | undefined;
  private failing = false;
  private closed = false;

  constructor(private readonly options: AgentStateJournalOptions) {}

  /**
   * Takes in the board as just derived. A row's `at` is the state's `since`, but never earlier than
   * this instance began writing (a call answered before a restart is on-call from the restart here:
   * the time before belongs to whoever wrote then) nor than the agent's last row, so a state holds
   * from its row to the agent's next one. An agent no longer listed becomes unknown.
   */
  observe(agents: ReadonlyMap<string, AgentStatus>, now: number): void {
    if (!this.options.writes()) {
      // A follower leaves the journal to the leader; should it lead later, it starts afresh from then.
      this.journaled.clear();
      this.writingSince = undefined;
      return;
    }
    this.writingSince ??= now;
    const floor = this.writingSince;
    for (const status of agents.values()) {
      const was = this.journaled.get(status.subscriberID);
      if (was && was.state === status.state && was.since === status.since) continue;
      const names = { firstName: status.firstName, lastName: status.lastName, extension: status.extension };
      this.add(status.subscriberID, status.state, status.since, Math.max(status.since, was ? was.at + 1 : floor), names);
    }
    for (const [subscriberID, was] of this.journaled)
      if (was.state !== 'unknown' && !agents.has(subscriberID)) this.add(subscriberID, 'unknown', now, Math.max(now, was.at + 1), was.names);
    this.flush();
  }

  /**
   * The service stops knowing its agents now: an 'unknown' row for each, so the time it is down is
   * unknown rather than the last state. Resolves once written, or once the attempt failed (logged).
   */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    this.retry = undefined;
    if (this.options.writes()) {
      const now = this.options.clock.now();
      for (const [subscriberID, was] of this.journaled)
        if (was.state !== 'unknown') this.add(subscriberID, 'unknown', now, Math.max(now, was.at + 1), was.names);
    }
    await this.writing;
    this.failing = false;
    this.flush();
    await this.writing;
  }

  private add(subscriberID: string, state: string, since: number, at: number, names: Journaled['names']): void {
    this.journaled.set(subscriberID, { state, since, at, names });
    this.pending.push({ subscriberID, at, state, ...names });
  }

  /** Writes what is pending, one batch at a time; after a failure, only the retry's timer writes again. */
  private flush(): void {
    if (this.writing || this.failing || this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    this.writing = this.options
      .write(batch)
      .then(
        () => {
          this.failing = false;
        },
        (error: unknown) => {
          this.pending = [...batch, ...this.pending];
          this.failing = true;
          this.options.log.warn(
            { provider: this.options.providerID, changes: this.pending.length, reason: (error as Error).message },
            'agent state changes were not journaled; they are kept and written again',
          );
          if (this.closed) return;
          this.retry = setTimeout(() => {
            this.retry = undefined;
            this.failing = false;
            this.flush();
          }, this.options.retryMs ?? JOURNAL_RETRY_MS);
          this.retry.unref();
        },
      )
      .finally(() => {
        this.writing = undefined;
        this.flush();
      });
  }
}
