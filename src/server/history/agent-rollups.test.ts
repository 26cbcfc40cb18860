import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../clock.js';
import { journalBatchOf } from '../calls/journal-batch.js';
import type { ProviderCall } from '../providers/phone-system.js';
import { createRandom, type Random } from '../providers/simulator/random.js';
import { providerCall } from '../test-support/provider-call.js';
import { useHistoryStore } from '../test-support/test-history.js';
import { AgentRollupRoller } from './agent-rollup-roller.js';
import type { AgentTimeRequest, AgentTimeRow } from './agent-time-query.js';
import type { HistoryStore } from './history-store.js';
import type { AgentStateChange } from './report-journal.js';

const scope = { accountID: 'acme', applicationID: 'center', providerID: 'pbx' };
const ZONE = 'Europe/Berlin';
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const at = (text: string) => Date.parse(text);
const silent = { warn: () => undefined, info: () => undefined, error: () => undefined } as unknown as FastifyBaseLogger;
const STATES = ['offline', 'inactive', 'available', 'ringing', 'on-call', 'unknown'];

const names = (id: string) => ({ firstName: id.toUpperCase(), lastName: 'Agent', extension: id.slice(-1) });

/** Random agents' changes of state and calls over [from, to), some of them before `from`, some calls open. */
const timeline = (random: Random, from: number, to: number) => {
  const changes: AgentStateChange[] = [];
  const calls: ProviderCall[] = [];
  for (let agent = 0; agent < 6; agent += 1) {
    const subscriberID = `a${agent}`;
    for (let i = 0; i < 40; i += 1)
      changes.push({ subscriberID, at: random.int(from - 6 * HOUR, to), state: STATES[random.int(0, STATES.length - 1)] as string, ...names(subscriberID) });
    for (let i = 0; i < 25; i += 1) {
      const startedAt = random.int(from - HOUR, to);
      const answered = random.int(0, 2) > 0;
      const ends = random.int(0, 5) > 0;
      const answeredAt = answered ? startedAt + random.int(1000, 30_000) : undefined;
      calls.push(
        providerCall(`${subscriberID}-${i}`, startedAt, {
          subscriberID,
          isOutbound: random.int(0, 3) === 0,
          ...(answeredAt === undefined ? {} : { answeredAt }),
          ...(ends ? { endedAt: (answeredAt ?? startedAt) + random.int(1000, 2 * HOUR) } : {}),
        }),
      );
    }
  }
  return { changes, calls };
};

const sorted = (rows: AgentTimeRow[]) => [...rows].sort((a, b) => (a.subscriberID < b.subscriberID ? -1 : 1));

/** The report read through the rollups equals the one read from the raw rows. */
const expectSameAsRaw = async (store: HistoryStore, request: AgentTimeRequest) => {
  const raw = sorted(await store.agentTime(scope, request));
  expect(raw.length).toBeGreaterThan(0);
  expect(sorted(await store.agentTimeRolled(scope, request))).toEqual(raw);
};

const rollerOf = (store: HistoryStore, clock: ManualClock, writes = () => true) =>
  new AgentRollupRoller({ history: store, scope, timeZone: ZONE, clock, retentionDays: 3650, writes, log: silent });

/** Steps until a step rolls nothing more. */
const rollAll = async (roller: AgentRollupRoller) => {
  while ((await roller.rollOnce()) > 0);
};

describe('the agents report read through rollups', () => {
  const store = useHistoryStore();

  for (const [season, from, to] of [
    ['spring (a 23-hour day)', at('2026-03-27T00:00:00Z'), at('2026-03-31T00:00:00Z')],
    ['autumn (a 25-hour day)', at('2026-10-23T00:00:00Z'), at('2026-10-27T00:00:00Z')],
  ] as const)
    it(`equals the raw read across the clock change in ${season}, for ragged and whole-day ranges`, async () => {
      const { changes, calls } = timeline(createRandom(from / HOUR), from, to);
      await store().recordAgentStates(scope, changes);
      await store().importCalls(scope, calls);
      const clock = new ManualClock(to + 90 * MIN);
      await rollAll(rollerOf(store(), clock));
      const periods = await store().rolledAgentPeriods(scope, from, to);
      const dayLengths = periods.filter((period) => period.span === 'day').map((period) => (period.end - period.start) / HOUR);
      expect(dayLengths).toContain(season.startsWith('spring') ? 23 : 25);
      const now = clock.now();
      await expectSameAsRaw(store(), { from, to: now, now });
      await expectSameAsRaw(store(), { from: from + 29 * HOUR + 17 * MIN, to: to - 10 * HOUR - 18 * MIN + 123, now });
      const midnight = at(season.startsWith('spring') ? '2026-03-28T23:00:00Z' : '2026-10-24T22:00:00Z');
      await expectSameAsRaw(store(), { from: midnight, to: midnight + 2 * 24 * HOUR + (season.startsWith('spring') ? -HOUR : HOUR), now });
      // The open hour and time not yet passed: `to` past now.
      await expectSameAsRaw(store(), { from: from + 5 * HOUR + 1, to: now + 5 * HOUR, now });
    });

  it('un-rolls for a past state written into a rolled hour, and for a call that ends after its hour was rolled', async () => {
    const from = at('2026-03-27T00:00:00Z');
    const to = at('2026-03-29T00:00:00Z');
    const { changes, calls } = timeline(createRandom(7), from, to);
    await store().recordAgentStates(scope, changes);
    const open = providerCall('late-ender', at('2026-03-28T10:50:00Z'), { subscriberID: 'a1', answeredAt: at('2026-03-28T10:50:10Z') });
    await store().importCalls(scope, [...calls, open]);
    const clock = new ManualClock(to + HOUR);
    const roller = rollerOf(store(), clock);
    await rollAll(roller);
    const request = { from, to: clock.now(), now: clock.now() };
    await expectSameAsRaw(store(), request);
    const rolledHour = { span: 'hour', start: at('2026-03-28T10:00:00Z'), end: at('2026-03-28T11:00:00Z') };
    expect(await store().rolledAgentPeriods(scope, from, to)).toContainEqual(rolledHour);

    // A backfill of a past state, dated inside the rolled hour.
    await store().recordAgentStates(scope, [{ subscriberID: 'a9', at: at('2026-03-28T10:20:00Z'), state: 'available', ...names('a9') }]);
    expect(await store().rolledAgentPeriods(scope, from, to)).not.toContainEqual(rolledHour);
    await expectSameAsRaw(store(), request);
    await rollAll(roller);
    expect(await store().rolledAgentPeriods(scope, from, to)).toContainEqual(rolledHour);
    await expectSameAsRaw(store(), request);

    // The call that started in the hour ends long after: its talk now counts in that hour.
    await store().write(scope, journalBatchOf([{ ...open, endedAt: at('2026-03-28T23:30:00Z') }], clock.now()));
    expect(await store().rolledAgentPeriods(scope, from, to)).not.toContainEqual(rolledHour);
    await expectSameAsRaw(store(), request);
    await rollAll(roller);
    expect(await store().rolledAgentPeriods(scope, from, to)).toContainEqual(rolledHour);
    const a1 = (await store().agentTimeRolled(scope, request)).find((row) => row.subscriberID === 'a1');
    expect(a1?.talkMs).toBeGreaterThanOrEqual(at('2026-03-28T23:30:00Z') - at('2026-03-28T10:50:10Z'));
    await expectSameAsRaw(store(), request);
  });

  it('rolls nothing on an instance that follows the cluster’s leader', async () => {
    const from = at('2026-03-27T00:00:00Z');
    const { changes, calls } = timeline(createRandom(3), from, from + 30 * HOUR);
    await store().recordAgentStates(scope, changes);
    await store().importCalls(scope, calls);
    const follower = rollerOf(store(), new ManualClock(from + 40 * HOUR), () => false);
    expect(await follower.rollOnce()).toBe(0);
    expect(await store().rolledAgentPeriods(scope, from - DAY, from + 40 * HOUR)).toEqual([]);
  });

  it('waits while the provider’s past is being filled in, and rolls once it is complete', async () => {
    const from = at('2026-03-27T00:00:00Z');
    const { changes, calls } = timeline(createRandom(4), from, from + 30 * HOUR);
    await store().recordAgentStates(scope, changes);
    await store().importCalls(scope, calls);
    const progress = { since: from - DAY, to: from, filledFrom: from, calls: 0, status: 'filling' as const };
    await store().beginBackfill(scope, progress);
    const roller = rollerOf(store(), new ManualClock(from + 40 * HOUR));
    expect(await roller.rollOnce()).toBe(0);
    expect(await store().rolledAgentPeriods(scope, from - DAY, from + 40 * HOUR)).toEqual([]);
    await store().writeBackfill(scope, [], { ...progress, filledFrom: progress.since, status: 'complete' });
    expect(await roller.rollOnce()).toBeGreaterThan(0);
  });

  it('prunes rollups with the raw rows', async () => {
    const from = at('2026-03-27T00:00:00Z');
    const { changes } = timeline(createRandom(5), from, from + 30 * HOUR);
    await store().recordAgentStates(scope, changes);
    await rollAll(rollerOf(store(), new ManualClock(from + 31 * HOUR)));
    await store().pruneBefore(from + 12 * HOUR);
    const left = await store().rolledAgentPeriods(scope, from - DAY, from + 31 * HOUR);
    expect(left.length).toBeGreaterThan(0);
    expect(left.every((period) => period.start >= from + 12 * HOUR)).toBe(true);
  });
});
