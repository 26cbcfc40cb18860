/**
 * One provider's queues, live and of the day: who waits and for how long, who talks, each queue's
 * members by their state on the agent board, the service-level figures of today and of the last 15
 * minutes with the queue's own parameters, and the agents it needs now (Erlang C).
 *
 * The figures are kept as calls change, not counted again from the journal: each call the service
 * knows adds its share to its queue's sums of the day, and a new version of it takes the old share
 * out and puts its own in. At start the journal gives the day up to where the live calls begin (the
 * sums of the calls that ended before then, per queue) and every call since, one by one.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Agent } from '../../contract/agents.js';
import {
  AGENTS_NEEDED_MINUTES,
  type AgentsNeeded,
  type QueueAgents,
  type QueueFigures,
  type QueueNow,
  type QueuePeriod,
  type QueuesResponse,
  type UnqueuedFigures,
} from '../../contract/queues.js';
import { startOfDayIn } from '../../contract/time-zone.js';
import type { Clock } from '../clock.js';
import { emptySums, figuresOf } from '../history/service-level-figures.js';
import type { ServiceLevelRequest, ServiceLevelSums } from '../history/service-level-query.js';
import type { ProviderCall } from '../providers/phone-system.js';
import { agentsFor } from './erlang.js';
import { keyOf, QueueWindows, type QueueKey } from './queue-windows.js';
import type { QueueConfig } from './queue-config.js';
import type { QueueDirectory } from './queue-directory.js';
import type { QueueSelection } from './queue-selection.js';
import { ANSWER_TIME_BOUNDS } from '../../contract/service-levels.js';
import { ChangeLog, formatPosition, type ChangeEntry, type ChangeLogLimits, type LogPosition } from '../calls/change-log.js';
import { queueParametersMs, UNQUEUED_PARAMETERS_MS } from './queue-config.js';

const MINUTE = 60_000;
const LAST_MINUTES = 15;
/** Calls are kept one by one while they started or ended this recently: the windows of `last15Minutes` and `agentsNeeded`, with room. */
const KEEP_MS = (AGENTS_NEEDED_MINUTES + 1) * MINUTE;
/** How often calls kept one by one are let go, once they are older than KEEP_MS. */
const PRUNE_EVERY_MS = 30_000;

const NO_QUEUE_KEY: QueueKey = '';

interface Parameters {
  answerWithinMs: number;
  shortAbandonMs: number;
}

const UNQUEUED_PARAMETERS: Parameters = UNQUEUED_PARAMETERS_MS;

/** One inbound call's share of its queue's sums: the service-level definitions, call by call, as the journal's query counts them. */
export const addCall = (sums: ServiceLevelSums, call: ProviderCall, p: Parameters, sign: 1 | -1 = 1): void => {
  if (call.isOutbound) return;
  sums.offered += sign;
  const wait = call.answeredAt === undefined ? undefined : call.answeredAt - call.startedAt;
  if (wait !== undefined) {
    sums.answered += sign;
    if (wait <= p.answerWithinMs) sums.answeredWithin += sign;
    sums.answerMsSum += sign * wait;
    // A maximum is not taken back: an answer time only shrinks when a later version tells an earlier answer.
    if (sign === 1 && (sums.answerMsMax === undefined || wait > sums.answerMsMax)) sums.answerMsMax = wait;
    ANSWER_TIME_BOUNDS.forEach((bound, i) => {
      if (wait <= bound * 1000) sums.answeredWithinBounds[i] = (sums.answeredWithinBounds[i] ?? 0) + sign;
    });
    if (call.endedAt !== undefined) {
      sums.talked += sign;
      sums.talkMsSum += sign * (call.endedAt - call.answeredAt!);
    }
  } else if (call.endedAt !== undefined) {
    if (call.endedAt - call.startedAt < p.shortAbandonMs) sums.shortAbandoned += sign;
    else sums.abandoned += sign;
  } else sums.waiting += sign;
};

const periodOf = (sums: ServiceLevelSums): QueuePeriod => {
  const { offered, answered, answeredWithin, shortAbandoned, abandoned, waiting, serviceLevel, abandonRate, averageAnswerSeconds, longestAnswerSeconds, averageTalkSeconds } =
    figuresOf(sums);
  return { offered, answered, answeredWithin, shortAbandoned, abandoned, waiting, serviceLevel, abandonRate, averageAnswerSeconds, longestAnswerSeconds, averageTalkSeconds };
};


export interface QueueBoardOptions {
  providerID: string;
  clock: Clock;
  timeZone: string;
  queues: QueueDirectory;
  /** The provider's calls as last published, or undefined before the first list. */
  calls: () => readonly ProviderCall[] | undefined;
  /** Calls `onChange` whenever the published calls change; returns a function that stops. */
  watchCalls: (onChange: () => void) => () => void;
  /** The agent board's records, or undefined while it has none to serve. */
  agents: () => readonly Agent[] | undefined;
  /** The journal's service-level sums (one queue's, with its parameters). */
  daySums: (request: ServiceLevelRequest) => Promise<ServiceLevelSums>;
  /** The journal's calls still open or ended from `since` on. */
  callsSince: (since: number) => Promise<readonly ProviderCall[]>;
  /** Calls `onChange` whenever the agent board changes; returns a function that stops. */
  watchAgents?: (onChange: () => void) => () => void;
  log: FastifyBaseLogger;
  changeLog?: ChangeLogLimits;
  /** How often the figures are looked at again while nothing changes (the windows slide with the clock). */
  refreshMs?: number;
}

export type QueueBoardListener = (entry: ChangeEntry) => void;

/** The figures are looked at again this often while no call changes: `last15Minutes` and `agentsNeeded` slide with the clock. */
export const QUEUES_REFRESH_MS = 5000;

/** A queue's record as compared between two publications: everything but the wait that grows with the clock. */
const comparable = ({ now: { longestWaitSeconds: _wait, ...now }, ...rest }: { now: { longestWaitSeconds: number } }) => JSON.stringify({ ...rest, now });


/** The board's whole figures: the calls in no queue always among them (an answer cut to some queues leaves them out). */
export type BoardFigures = QueuesResponse & { unqueued: UnqueuedFigures };
export class QueueBoard {
  /** Calls kept one by one: every call the provider lists, and those that started or ended in the last KEEP_MS. */
  private readonly kept = new Map<string, ProviderCall>();
  /** Today's sums per queue, over every call the day has had. */
  private today = new Map<QueueKey, ServiceLevelSums>();
  private dayStart: number;
  private loading: Promise<void> | undefined;
  private loaded = false;
  private reloadWanted = false;
  /** The calls that ended before this are counted in the journal's sums, not one by one. */
  private settledBefore = 0;
  private prunedAt = 0;
  /** The recent calls summed by minute: what the last 15 and 30 minutes are read from. */
  private readonly windows = new QueueWindows((key) => this.parametersOf(key), addCall);
  /** The calls kept that are not over: who waits and who talks now. */
  private readonly open = new Map<string, ProviderCall>();
  /** Bumped at every change of the kept calls: what a cached answer was computed at. */
  private version = 0;
  private cached: { version: number; second: number; answer: BoardFigures } | undefined;
  private stopWatching: (() => void) | undefined;
  private stopWatchingAgents: (() => void) | undefined;
  private readonly changes: ChangeLog;
  private readonly listeners = new Set<QueueBoardListener>();
  /** What was last published, per queue ('' for the calls in no queue), as compared. */
  private published = new Map<string, string>();
  private publishedAnswer: BoardFigures | undefined;
  private snapshotCache: { seq: number; json: string } | undefined;
  private refresh: NodeJS.Timeout | undefined;
  private publishing = false;
  /** Members already told to be unknown to the provider. */
  private readonly warned = new Set<string>();

  constructor(private readonly options: QueueBoardOptions) {
    this.dayStart = startOfDayIn(options.timeZone, options.clock.now());
    this.changes = new ChangeLog(options.clock, options.changeLog);
    this.stopWatching = options.watchCalls(() => {
      this.takeCalls();
      this.publish();
    });
    this.stopWatchingAgents = options.watchAgents?.(() => {
      // The members' states are part of the figures.
      this.version += 1;
      this.publish();
    });
  }

  get directory(): QueueDirectory {
    return this.options.queues;
  }

  /** Takes in the day from the journal (it follows the calls from its construction). */
  start(): void {
    void this.ready().then(
      () => this.publish(),
      () => undefined,
    );
    this.refresh ??= setInterval(() => this.publish(), this.options.refreshMs ?? QUEUES_REFRESH_MS);
    this.refresh.unref();
  }

  stop(): void {
    this.stopWatching?.();
    this.stopWatching = undefined;
    this.stopWatchingAgents?.();
    this.stopWatchingAgents = undefined;
    if (this.refresh) clearInterval(this.refresh);
    this.refresh = undefined;
  }

  subscribe(listener: QueueBoardListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get position(): LogPosition {
    return this.changes.position;
  }

  changesSince(from: LogPosition): ChangeEntry[] | undefined {
    return this.changes.since(from);
  }

  /** The stream's `queues` event data for the figures as last published, serialized once per change; undefined before the first. */
  snapshotData(): { data: string; position: LogPosition } | undefined {
    const answer = this.publishedAnswer;
    if (!answer) return undefined;
    const position = this.changes.position;
    if (this.snapshotCache?.seq !== position.seq)
      this.snapshotCache = { seq: position.seq, json: JSON.stringify({ providerID: this.options.providerID, cursor: formatPosition(position), ...answer }) };
    return { data: this.snapshotCache.json, position };
  }

  /**
   * Looks at the figures now and numbers a change when a queue's differ from what was published:
   * the queues that changed, in full, with the calls in no queue. Once the day is read.
   */
  private publish(): void {
    if (!this.loaded || this.publishing) return;
    this.publishing = true;
    try {
      this.takeCalls();
      this.turnDay();
      const answer = this.figuresNow();
      const next = new Map<string, string>();
      const upserted = answer.queues.filter((queue) => {
        const text = comparable(queue);
        next.set(queue.queueID, text);
        return this.published.get(queue.queueID) !== text;
      });
      const unqueued = comparable(answer.unqueued);
      next.set(NO_QUEUE_KEY, unqueued);
      const first = this.published.size === 0;
      const changed = upserted.length > 0 || this.published.get(NO_QUEUE_KEY) !== unqueued;
      this.published = next;
      this.publishedAnswer = answer;
      // The first publication is the snapshot streams start from: no change to number.
      if (first || !changed) return;
      const entry = this.changes.append(
        (position) =>
          JSON.stringify({
            providerID: this.options.providerID,
            cursor: formatPosition(position),
            figuresAt: answer.figuresAt,
            dayStart: answer.dayStart,
            upserted,
            unqueued: answer.unqueued,
          }),
        { upserted: upserted.length, removed: 0 },
      );
      for (const listener of this.listeners) listener(entry);
    } finally {
      this.publishing = false;
    }
  }

  /**
   * The journal gained calls the live list never showed (the provider's past, filled in): the day
   * is read from it again at the next read, the calls kept one by one counted anew over it.
   */
  reload(): void {
    this.reloadWanted = true;
  }

  /** Resolves once the day is taken in from the journal; a failure is tried again at the next call. */
  ready(): Promise<void> {
    if (this.reloadWanted && !this.loading) {
      this.reloadWanted = false;
      this.loaded = false;
    }
    if (this.loaded) return Promise.resolve();
    this.loading ??= this.load().finally(() => {
      this.loading = undefined;
    });
    return this.loading;
  }

  private async load(): Promise<void> {
    const now = this.options.clock.now();
    const dayStart = startOfDayIn(this.options.timeZone, now);
    // The live list may keep an ended call for a while: the journal's sums stop before any of them.
    const openFrom = now - KEEP_MS;
    const groups: { key: QueueKey; queue: QueueConfig | undefined }[] = [
      ...this.options.queues.queues.map((queue) => ({ key: queue.id, queue })),
      { key: NO_QUEUE_KEY, queue: undefined },
    ];
    try {
      const [sums, calls] = await Promise.all([
        Promise.all(
          groups.map(({ queue }) => {
            const selection: QueueSelection = queue ? { ids: [queue.id], none: false } : { ids: [], none: true };
            const p = this.parametersOf(queue?.id ?? NO_QUEUE_KEY);
            return this.options.daySums({
              from: dayStart,
              to: now + 1,
              bucketMs: now + 1 - dayStart,
              answerWithinMs: p.answerWithinMs,
              shortAbandonMs: p.shortAbandonMs,
              subscribers: false,
              queues: selection,
              endedBefore: openFrom,
            });
          }),
        ),
        this.options.callsSince(openFrom),
      ]);
      this.dayStart = dayStart;
      this.today = new Map(groups.map(({ key }, i) => [key, sums[i] as ServiceLevelSums]));
      // What the live list told meanwhile is newer than the journal; a call that ended before
      // `openFrom` is in the journal's sums already.
      for (const call of calls) if (!this.kept.has(call.callID)) this.kept.set(call.callID, call);
      this.windows.clear();
      this.open.clear();
      for (const [callID, call] of this.kept) {
        if (call.endedAt !== undefined && call.endedAt < openFrom) this.kept.delete(callID);
        else this.take(call, 1);
      }
      this.settledBefore = openFrom;
      this.loaded = true;
      this.version += 1;
      this.publish();
    } catch (error) {
      this.options.log.warn({ provider: this.options.providerID, reason: (error as Error).message }, "the queues' figures of the day were not read from the journal");
      throw error;
    }
  }

  private parametersOf(key: QueueKey): Parameters {
    const queue = key === NO_QUEUE_KEY ? undefined : this.options.queues.get(key);
    return queue ? queueParametersMs(queue) : UNQUEUED_PARAMETERS;
  }

  /** Adds (or takes out) a call's share of today's sums, when it is one of today's. */
  private share(call: ProviderCall, sign: 1 | -1): void {
    if (call.isOutbound || call.startedAt < this.dayStart) return;
    const key = keyOf(call);
    let sums = this.today.get(key);
    if (!sums) this.today.set(key, (sums = emptySums()));
    addCall(sums, call, this.parametersOf(key), sign);
  }

  /** Takes in the calls as published: a new version of a call replaces its share. */
  private takeCalls(): void {
    const calls = this.options.calls();
    if (!calls) return;
    this.turnDay();
    let changed = false;
    for (const call of calls) {
      const was = this.kept.get(call.callID);
      if (was === call) continue;
      changed = true;
      this.replace(was, call);
    }
    // A call that left the list while it was open here ended: a provider that lists an ended call
    // for no time (keepEndedMs 0) shows no ended version of it. It ended when the list lost it.
    if (this.open.size > 0 && this.open.size + calls.length > 0) {
      const listed = new Set(calls.map((call) => call.callID));
      const now = this.options.clock.now();
      for (const [callID, call] of this.open)
        if (!listed.has(callID)) {
          changed = true;
          this.replace(call, { ...call, endedAt: Math.max(now, call.answeredAt ?? call.startedAt), isMissedCall: !call.isOutbound && call.answeredAt === undefined });
        }
    }
    if (changed) this.version += 1;
    this.prune();
  }

  /** A new version of a call (or a new call): its share of the day and of the windows replaced. */
  private replace(was: ProviderCall | undefined, call: ProviderCall): void {
    this.kept.set(call.callID, call);
    if (!this.loaded) return;
    if (was) this.take(was, -1);
    // A call the journal's sums hold already (listed long after its end): counted there.
    else if (call.endedAt !== undefined && call.endedAt < this.settledBefore) return;
    this.take(call, 1);
  }

  /** Adds (1) or takes out (-1) a call's share of the day, of the windows, and of the calls open now. */
  private take(call: ProviderCall, sign: 1 | -1): void {
    this.share(call, sign);
    this.windows.apply(call, sign);
    if (sign === -1) this.open.delete(call.callID);
    else if (call.endedAt === undefined) this.open.set(call.callID, call);
  }

  /** At midnight the day's sums start over, from the calls kept that started since. */
  private turnDay(): void {
    const dayStart = startOfDayIn(this.options.timeZone, this.options.clock.now());
    if (dayStart === this.dayStart) return;
    this.dayStart = dayStart;
    this.today = new Map();
    if (this.loaded) for (const call of this.kept.values()) this.share(call, 1);
    this.version += 1;
  }

  private prune(): void {
    const now = this.options.clock.now();
    if (now - this.prunedAt < PRUNE_EVERY_MS) return;
    this.prunedAt = now;
    const listed = new Set((this.options.calls() ?? []).map((call) => call.callID));
    const before = now - KEEP_MS;
    for (const [callID, call] of this.kept)
      if (call.endedAt !== undefined && call.endedAt < before && call.startedAt < before && !listed.has(callID)) this.kept.delete(callID);
    this.windows.prune(before);
  }

  /** The figures as of now, computed at most once a second and change. */
  async read(): Promise<BoardFigures> {
    await this.ready();
    // The first snapshot is published without a change to tell of: a read takes the calls as they stand.
    this.takeCalls();
    this.turnDay();
    return this.figuresNow();
  }

  private figuresNow(): BoardFigures {
    const now = this.options.clock.now();
    const second = Math.floor(now / 1000);
    if (this.cached && this.cached.version === this.version && this.cached.second === second) return this.cached.answer;
    const answer = this.figures(now);
    this.cached = { version: this.version, second, answer };
    return answer;
  }

  /** A member the provider does not have is told once (agents come and go: not an error). */
  private warnUnknownMembers(byID: ReadonlyMap<string, Agent>): void {
    for (const queue of this.options.queues.queues)
      for (const member of queue.members) {
        const key = `${queue.id}/${member}`;
        if (byID.has(member) || this.warned.has(key)) continue;
        this.warned.add(key);
        this.options.log.warn({ provider: this.options.providerID, queue: queue.id, member }, `queue "${queue.id}" lists member "${member}", whom the provider does not have`);
      }
  }

  private figures(now: number): BoardFigures {
    const { queues } = this.options.queues;
    const lastFrom = now - LAST_MINUTES * MINUTE;
    const neededFrom = now - AGENTS_NEEDED_MINUTES * MINUTE;
    const live = new Map<QueueKey, { waiting: number; oldest: number | undefined; talking: number }>();
    // Only the calls open now are walked; the windows are read from their sums by minute.
    for (const call of this.open.values()) {
      if (call.isOutbound || call.startedAt > now) continue;
      const key = keyOf(call);
      let entry = live.get(key);
      if (!entry) live.set(key, (entry = { waiting: 0, oldest: undefined, talking: 0 }));
      if (call.answeredAt === undefined) {
        entry.waiting += 1;
        if (entry.oldest === undefined || call.startedAt < entry.oldest) entry.oldest = call.startedAt;
      } else entry.talking += 1;
    }
    const windowOf = (key: QueueKey) => {
      const { handled, handleMs } = this.windows.endedBetween(key, neededFrom, now);
      return { offered: this.windows.startedBetween(key, neededFrom, now).offered, handled, handleMs };
    };
    const agents = this.options.agents();
    const byID = agents ? new Map(agents.map((agent) => [agent.subscriberID, agent])) : undefined;
    if (byID) this.warnUnknownMembers(byID);
    const nowOf = (key: QueueKey) => {
      const entry = live.get(key);
      const oldest = entry?.oldest;
      return {
        waiting: entry?.waiting ?? 0,
        longestWaitSeconds: oldest === undefined ? 0 : Math.max(0, Math.floor((now - oldest) / 1000)),
        ...(oldest === undefined ? {} : { oldestWaitingSince: new Date(oldest).toISOString() }),
        talking: entry?.talking ?? 0,
      };
    };
    const todayOf = (key: QueueKey) => periodOf(this.today.get(key) ?? emptySums());
    const figures = queues.map((queue): QueueFigures => {
      const today = todayOf(queue.id);
      const current: QueueNow = { ...nowOf(queue.id), agents: agentsOf(queue, byID) };
      return {
        queueID: queue.id,
        name: queue.name,
        numbers: [...queue.numbers],
        providerQueues: [...queue.providerQueues],
        members: [...queue.members],
        answerWithinSeconds: queue.answerWithinSeconds,
        shortAbandonSeconds: queue.shortAbandonSeconds,
        serviceLevelTarget: queue.serviceLevelTarget,
        now: current,
        today,
        last15Minutes: periodOf(this.windows.startedBetween(queue.id, lastFrom, now)),
        agentsNeeded: neededOf(queue, windowOf(queue.id), today.averageTalkSeconds),
      };
    });
    return {
      figuresAt: new Date(now).toISOString(),
      dayStart: new Date(this.dayStart).toISOString(),
      queues: figures,
      unqueued: { now: nowOf(NO_QUEUE_KEY), today: todayOf(NO_QUEUE_KEY) },
    };
  }

}

/** The queue's members by their state on the board; without a board, none is counted. */
const agentsOf = (queue: QueueConfig, byID: Map<string, Agent> | undefined): QueueAgents => {
  const counts: QueueAgents = { staffed: 0, available: 0, ringing: 0, onCall: 0, inactive: 0, offline: 0 };
  if (!byID) return counts;
  for (const member of queue.members) {
    const agent = byID.get(member);
    if (!agent) continue;
    if (agent.state === 'on-call') counts.onCall += 1;
    else counts[agent.state] += 1;
    if (agent.state !== 'offline') counts.staffed += 1;
  }
  return counts;
};

const neededOf = (
  queue: QueueConfig,
  window: { offered: number; handled: number; handleMs: number } | undefined,
  averageTalkSeconds: number | null,
): AgentsNeeded => {
  const averageHandleSeconds = window && window.handled > 0 ? window.handleMs / window.handled / 1000 : averageTalkSeconds;
  if (averageHandleSeconds === null || averageHandleSeconds <= 0) return null;
  const offeredPerHour = (window?.offered ?? 0) * (60 / AGENTS_NEEDED_MINUTES);
  const { agents, serviceLevel } = agentsFor({
    offeredPerHour,
    averageHandleSeconds,
    answerWithinSeconds: queue.answerWithinSeconds,
    serviceLevelTarget: queue.serviceLevelTarget,
  });
  return { agents, serviceLevel, offeredPerHour, averageHandleSeconds: Math.round(averageHandleSeconds * 10) / 10, basedOnMinutes: AGENTS_NEEDED_MINUTES };
};
