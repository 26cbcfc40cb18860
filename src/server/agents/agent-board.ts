/**
 * One provider's agent board: its subscribers, asked for on an interval, crossed with its calls
 * at every change the sync publishes, and today's figures per subscriber counted from the journal.
 * Each change of the board is numbered in a change log of its own, so a stream sends a snapshot and
 * then only the agents that changed, and resumes like the calls.
 */
import type { FastifyBaseLogger } from 'fastify';
import { totalsOf, type Agent, type AgentTotals, type ListAgentsResponse } from '../../contract/agents.js';
import type { Subscriber } from '../../contract/subscriber.js';
import { startOfDayIn } from '../../contract/time-zone.js';
import { ChangeLog, formatPosition, type ChangeEntry, type ChangeLogLimits, type LogPosition } from '../calls/change-log.js';
import type { Clock } from '../clock.js';
import type { SubscriberActivityRow } from '../history/subscriber-activity-query.js';
import { ProviderFailure, type ProviderCall } from '../providers/phone-system.js';
import { AgentStateJournal } from './agent-state-journal.js';
import { deriveAgents, type AgentStatus, type Board } from '../providers/agent-states.js';
import type { AgentStateChange } from '../history/report-journal.js';

/** Today's figures of one subscriber. */
interface DayFigures {
  callsToday: number;
  missedToday: number;
  talkSecondsToday: number;
}

const NO_FIGURES: DayFigures = { callsToday: 0, missedToday: 0, talkSecondsToday: 0 };

/** How often today's figures are counted again while calls change. */
export const FIGURES_INTERVAL_MS = 10_000;

export interface AgentBoardOptions {
  providerID: string;
  providerName: string;
  clock: Clock;
  /** How often the subscribers are asked for. */
  intervalMs: number;
  /** Past this long without a subscriber list, the board is not served. */
  staleAfterMs: number;
  timeZone: string;
  figuresIntervalMs?: number;
  listSubscribers: () => Promise<Subscriber[]>;
  /** The provider's calls as last published, or undefined before the first list. */
  calls: () => readonly ProviderCall[] | undefined;
  /** Calls `onChange` whenever the published calls change; returns a function that stops. */
  watchCalls: (onChange: () => void) => () => void;
  /** Calls per subscriber started in [from, to), from the journal. */
  countDay: (from: number, to: number, now: number) => Promise<SubscriberActivityRow[]>;
  log: FastifyBaseLogger;
  changeLog?: ChangeLogLimits;
  /** Where each change of an agent's state is journaled, and whether this instance writes it now; none, no journal. */
  stateJournal?: { writes: () => boolean; write: (changes: readonly AgentStateChange[]) => Promise<void>; retryMs?: number };
}

/** The board as served, or why there is none. */
export type BoardRead = { ok: true; board: ListAgentsResponse; position: LogPosition } | { ok: false; failure: ProviderFailure };

export type AgentBoardListener = (entry: ChangeEntry) => void;

const iso = (ms: number) => new Date(ms).toISOString();

export class AgentBoard {
  private subscribers: readonly Subscriber[] | undefined;
  private subscribersAt: number | undefined;
  private failure: ProviderFailure | undefined;
  private board: Board | undefined;
  /** The wire records as last published, by subscriber ID, in the subscribers' order. */
  private records = new Map<string, Agent>();
  private figures = new Map<string, DayFigures>();
  private dayStart: number;
  private figuresAt: number;
  private figuresDirty = true;
  private readonly changes: ChangeLog;
  private readonly listeners = new Set<AgentBoardListener>();
  private snapshotCache: { seq: number; json: string } | undefined;
  private timers: NodeJS.Timeout[] = [];
  private stopWatching: (() => void) | undefined;
  private firstList: Promise<void> | undefined;
  private listing: Promise<void> | undefined;
  private counting: Promise<void> | undefined;
  private stopped = false;
  private readonly journal: AgentStateJournal | undefined;

  constructor(private readonly options: AgentBoardOptions) {
    this.changes = new ChangeLog(options.clock, options.changeLog);
    if (options.stateJournal)
      this.journal = new AgentStateJournal({ providerID: options.providerID, clock: options.clock, log: options.log, ...options.stateJournal });
    const now = options.clock.now();
    this.dayStart = startOfDayIn(options.timeZone, now);
    this.figuresAt = now;
    this.stopWatching = options.watchCalls(() => {
      this.figuresDirty = true;
      this.update();
    });
  }

  /** Lists the subscribers now and on the interval, and counts today's figures now and as calls change. */
  start(): void {
    this.stopped = false;
    this.firstList = this.listSubscribers();
    void this.countFigures();
    const every = (ms: number, run: () => void) => {
      const timer = setInterval(run, ms);
      timer.unref();
      this.timers.push(timer);
    };
    every(this.options.intervalMs, () => void this.listSubscribers());
    every(this.options.figuresIntervalMs ?? FIGURES_INTERVAL_MS, () => void this.countFigures());
  }

  stop(): void {
    this.stopped = true;
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
    this.stopWatching?.();
    this.stopWatching = undefined;
  }

  /** Stops, and journals every agent as unknown from now: the time the service is down is not their last state. */
  async close(): Promise<void> {
    this.stop();
    await this.journal?.close();
  }

  /** Resolves once the first subscriber list has settled (a board, or a failure to report). */
  async ready(): Promise<void> {
    await (this.firstList ?? this.listSubscribers());
  }

  /** Asks the provider for its subscribers once (at most one request at a time), then updates the board. */
  listSubscribers(): Promise<void> {
    this.listing ??= this.options
      .listSubscribers()
      .then(
        (subscribers) => {
          this.subscribers = subscribers;
          this.subscribersAt = this.options.clock.now();
          this.failure = undefined;
        },
        (error: unknown) => {
          this.failure =
            error instanceof ProviderFailure ? error : new ProviderFailure('error', `${this.options.providerName} did not list its subscribers: ${(error as Error).message}`);
        },
      )
      .then(() => {
        if (!this.stopped) this.update();
      })
      .finally(() => {
        this.listing = undefined;
      });
    return this.listing;
  }

  /**
   * Counts today's figures again when calls changed since the last count or the day turned; the
   * journal answers in its reader threads, so a count never holds up the board.
   */
  countFigures(force = false): Promise<void> {
    const now = this.options.clock.now();
    const dayStart = startOfDayIn(this.options.timeZone, now);
    const newDay = dayStart !== this.dayStart;
    if (!force && !newDay && !this.figuresDirty) return Promise.resolve();
    if (this.counting) return this.counting;
    this.figuresDirty = false;
    this.counting = this.options
      .countDay(dayStart, now + 1, now)
      .then(
        (rows) => {
          this.dayStart = dayStart;
          this.figuresAt = now;
          this.figures = new Map(
            rows.map((row) => [
              row.subscriberID,
              { callsToday: row.calls, missedToday: row.missed, talkSecondsToday: Math.max(0, Math.round(row.talkMs / 1000)) },
            ]),
          );
          if (!this.stopped) this.update();
        },
        (error: unknown) => {
          this.figuresDirty = true;
          this.options.log.warn({ provider: this.options.providerID, reason: (error as Error).message }, "today's agent figures were not counted");
        },
      )
      .finally(() => {
        this.counting = undefined;
      });
    return this.counting;
  }

  subscribe(listener: AgentBoardListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The board to serve, with the change-log position it stands at. */
  read(): BoardRead {
    const now = this.options.clock.now();
    if (this.subscribersAt === undefined || !this.board) return { ok: false, failure: this.unavailable('it has not listed its subscribers yet') };
    if (now - this.subscribersAt > this.options.staleAfterMs)
      return { ok: false, failure: this.unavailable(`its subscribers are ${Math.round((now - this.subscribersAt) / 1000)} s old`) };
    const agents = [...this.records.values()];
    return { ok: true, board: { agents, totals: totalsOf(agents), dayStart: iso(this.dayStart), figuresAt: iso(this.figuresAt) }, position: this.changes.position };
  }

  /** The stream's `agents` event data for the board as it stands, serialized once per change. */
  snapshotData(): { data: string; position: LogPosition } | undefined {
    const read = this.read();
    if (!read.ok) return undefined;
    if (this.snapshotCache?.seq !== read.position.seq) {
      this.snapshotCache = {
        seq: read.position.seq,
        json: JSON.stringify({ providerID: this.options.providerID, cursor: formatPosition(read.position), ...read.board }),
      };
    }
    return { data: this.snapshotCache.json, position: read.position };
  }

  changesSince(from: LogPosition): ChangeEntry[] | undefined {
    return this.changes.since(from);
  }

  get position(): LogPosition {
    return this.changes.position;
  }

  /** Derives the board again from the latest subscribers, calls and figures; publishes what changed. */
  private update(): void {
    const subscribers = this.subscribers;
    if (!subscribers) return;
    const now = this.options.clock.now();
    this.board = deriveAgents(subscribers, this.options.calls() ?? [], this.board, now);
    this.journal?.observe(this.board.agents, now);
    const next = new Map<string, Agent>();
    const upserted: Agent[] = [];
    for (const status of this.board.agents.values()) {
      const was = this.records.get(status.subscriberID);
      const record = toAgent(status, this.figures.get(status.subscriberID) ?? NO_FIGURES);
      if (was && sameRecord(was, record)) next.set(status.subscriberID, was);
      else {
        next.set(status.subscriberID, record);
        upserted.push(record);
      }
    }
    const removed = [...this.records.keys()].filter((id) => !next.has(id));
    this.records = next;
    if (upserted.length === 0 && removed.length === 0) return;
    const totals = totalsOf(next.values());
    const entry = this.changes.append(
      (position) => changesData(this.options.providerID, position, upserted, removed, totals, this.dayStart, this.figuresAt),
      { upserted: upserted.length, removed: removed.length },
    );
    for (const listener of this.listeners) listener(entry);
  }

  private unavailable(cause: string): ProviderFailure {
    const name = this.options.providerName;
    const reason = this.failure ? `${cause}: ${this.failure.message}` : cause;
    return new ProviderFailure('unavailable', `${name} has no agent board to serve: ${reason}`, name);
  }
}

const toAgent = (status: AgentStatus, figures: DayFigures): Agent => {
  const agent: Agent = {
    subscriberID: status.subscriberID,
    firstName: status.firstName,
    lastName: status.lastName,
    extension: status.extension,
    state: status.state,
    since: iso(status.since),
    ...figures,
  };
  if (status.callID !== undefined) agent.callID = status.callID;
  if (status.remoteNumber !== undefined) agent.remoteNumber = status.remoteNumber;
  if (status.remoteName !== undefined) agent.remoteName = status.remoteName;
  if (status.isOutbound !== undefined) agent.isOutbound = status.isOutbound;
  return agent;
};

/**
 * The fields whose change makes an agent's record a change to publish: every field of `Agent` but
 * `subscriberID`, which is how a record is matched (a record under another ID is another agent:
 * one removed, one added). A field added to `Agent` does not build until it is named here.
 */
const AGENT_FIELDS = {
  // The fields that change most often first, so that a changed record is told after a comparison or two.
  state: true,
  since: true,
  callID: true,
  remoteNumber: true,
  remoteName: true,
  isOutbound: true,
  callsToday: true,
  missedToday: true,
  talkSecondsToday: true,
  firstName: true,
  lastName: true,
  extension: true,
} as const satisfies { [K in Exclude<keyof Agent, 'subscriberID'>]-?: true };

const AGENT_FIELD_NAMES = Object.keys(AGENT_FIELDS) as (keyof typeof AGENT_FIELDS)[];

const sameRecord = (a: Agent, b: Agent): boolean => AGENT_FIELD_NAMES.every((field) => a[field] === b[field]);

const changesData = (
  providerID: string,
  position: LogPosition,
  upserted: readonly Agent[],
  removed: readonly string[],
  totals: AgentTotals,
  dayStart: number,
  figuresAt: number,
): string =>
  JSON.stringify({ providerID, cursor: formatPosition(position), upserted, removed, totals, dayStart: iso(dayStart), figuresAt: iso(figuresAt) });
