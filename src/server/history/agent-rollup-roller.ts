/**
 * Rolls a provider's agents' time up in the background: each closed UTC hour not rolled yet, from
 * the oldest agent state or call within the retention, then each closed day of the service's time
 * zone whose hours are all rolled. Only the instance that writes the journal rolls; a step does
 * bounded work, and steps follow each other while work remains, so a start never stalls. While
 * the provider's past is being filled in, it waits (it looks again every ROLL_EVERY_MS).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { ProviderScope } from '../../contract/paths.js';
import { startOfDayIn } from '../../contract/time-zone.js';
import type { Clock } from '../clock.js';
import type { RollupPeriod } from './agent-rollups.js';
import type { HistoryStore } from './history-store.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** How often the roller looks for newly closed hours when it has caught up. */
const ROLL_EVERY_MS = 5 * 60_000;
/** Hours rolled per step: a step reads a day of raw rows at most. */
const HOURS_PER_STEP = 24;
/** The pause between steps while the roller catches up, so other work has its turn. */
const CATCH_UP_PAUSE_MS = 50;

export interface AgentRollupRollerOptions {
  history: Pick<HistoryStore, 'rolledAgentPeriods' | 'oldestAgentActivity' | 'rollAgentPeriod' | 'forgetRollups' | 'readBackfill'>;
  scope: ProviderScope;
  timeZone: string;
  clock: Clock;
  retentionDays: number;
  /** Whether this instance writes the provider's journal (alone, or as the cluster's leader). */
  writes: () => boolean;
  log: FastifyBaseLogger;
}

const hourOf = (at: number) => Math.floor(at / HOUR_MS) * HOUR_MS;

/** The days of the zone that start at or after `from` and end by `to`, on hour boundaries (a zone half an hour off UTC has none). */
const daysWithin = (zone: string, from: number, to: number): RollupPeriod[] => {
  const days: RollupPeriod[] = [];
  let start = startOfDayIn(zone, from);
  if (start < from) start = startOfDayIn(zone, start + DAY_MS + HOUR_MS);
  while (start < to) {
    // A day lasts 23 to 25 hours: 25 hours on is within the next day, or at its start.
    const end = startOfDayIn(zone, start + DAY_MS + HOUR_MS);
    if (end > to) break;
    if (start % HOUR_MS === 0 && end % HOUR_MS === 0) days.push({ span: 'day', start, end });
    start = end;
  }
  return days;
};

export class AgentRollupRoller {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(private readonly options: AgentRollupRollerOptions) {}

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  /** Stops the loop and waits for a step under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** One step: answers how many periods it rolled; fewer than it may roll means it has caught up. */
  async rollOnce(): Promise<number> {
    const { history, scope, timeZone, clock, retentionDays, writes } = this.options;
    if (!writes()) {
      history.forgetRollups(scope);
      return 0;
    }
    // While the provider's past is being filled in, each batch of it un-rolls the periods after its
    // earliest call or state: rolling meanwhile would be undone batch by batch. The roller waits.
    if ((await history.readBackfill(scope))?.status === 'filling') return 0;
    const now = clock.now();
    const oldest = await history.oldestAgentActivity(scope);
    if (oldest === undefined) return 0;
    const from = hourOf(Math.max(oldest, now - retentionDays * DAY_MS));
    const to = hourOf(now);
    if (from >= to) return 0;
    const rolled = await history.rolledAgentPeriods(scope, from, to);
    const key = (period: RollupPeriod) => `${period.span}@${period.start}`;
    const done = new Set(rolled.map(key));
    const hours: RollupPeriod[] = [];
    // The newest first: the reports asked for most are of the recent past.
    for (let start = to - HOUR_MS; start >= from && hours.length < HOURS_PER_STEP; start -= HOUR_MS)
      if (!done.has(`hour@${start}`)) hours.push({ span: 'hour', start, end: start + HOUR_MS });
    for (const hour of hours) {
      if (this.stopped) return 0;
      await history.rollAgentPeriod(scope, hour, now);
      done.add(key(hour));
    }
    let days = 0;
    for (const day of daysWithin(timeZone, from, to)) {
      if (this.stopped || done.has(key(day))) continue;
      let complete = true;
      for (let start = day.start; start < day.end && complete; start += HOUR_MS) complete = done.has(`hour@${start}`);
      if (!complete) continue;
      await history.rollAgentPeriod(scope, day, now);
      days += 1;
    }
    return hours.length + days;
  }

  private schedule(delay: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.step();
    }, delay);
    this.timer.unref();
  }

  private async step(): Promise<void> {
    let rolled = 0;
    try {
      rolled = await this.rollOnce();
    } catch (error) {
      this.options.log.error({ provider: this.options.scope.providerID, reason: (error as Error).message }, "rolling up the agents' time failed");
    }
    this.schedule(rolled >= HOURS_PER_STEP ? CATCH_UP_PAUSE_MS : ROLL_EVERY_MS);
  }
}
