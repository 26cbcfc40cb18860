import { figuresByHand } from '../test-support/figures-by-hand.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { paths } from '../../contract/paths.js';
import { problemSchema } from '../../contract/problem.js';
import { intervalReportSchema, type IntervalReport, type IntervalRow } from '../../contract/reports.js';
import type { ServiceConfigInput } from '../config/config-schema.js';
import type { AgentStateChange } from '../history/report-journal.js';
import type { ProviderCall } from '../providers/phone-system.js';
import { agentsFor } from '../queues/erlang.js';
import { providerCall as call } from '../test-support/provider-call.js';
import { buildTestApp, testConfig, tokens, type TestApp } from '../test-support/test-app.js';

const pbx = { accountID: 'acme', applicationID: 'support', providerID: 'pbx' };
const SEC = 1000;
const MIN = 60 * SEC;
const HOUR = 60 * MIN;
const iso = (ms: number) => new Date(ms).toISOString();

// Europe/Berlin: 2026-03-29 puts the clocks forward at 02:00 (23 hours), 2026-10-25 back at 03:00 (25 hours).
const SPRING = { from: Date.parse('2026-03-28T23:00:00Z'), to: Date.parse('2026-03-29T22:00:00Z'), date: '2026-03-29', next: '2026-03-30' };
const AUTUMN = { from: Date.parse('2026-10-24T22:00:00Z'), to: Date.parse('2026-10-25T23:00:00Z'), date: '2026-10-25', next: '2026-10-26' };
/** The report is asked after both days, while some calls of the autumn day are still open: "now". */
const NOW = AUTUMN.to - 3 * HOUR - 7 * MIN;

interface Parameters {
  answerWithinSeconds: number;
  shortAbandonSeconds: number;
  serviceLevelTarget: number;
  members: string[];
}
const SUPPORT: Parameters = { answerWithinSeconds: 20, shortAbandonSeconds: 5, serviceLevelTarget: 0.8, members: ['agt-1', 'agt-2'] };
const SALES: Parameters = { answerWithinSeconds: 10, shortAbandonSeconds: 3, serviceLevelTarget: 0.9, members: ['agt-2', 'agt-3'] };
/** Support's target changes on the spring day at 10:07 Berlin time (08:07 UTC): the intervals before keep the old one. */
const CHANGE_AT = Date.parse('2026-03-29T08:07:00Z');
const SUPPORT_LATER: Parameters = { answerWithinSeconds: 30, shortAbandonSeconds: 8, serviceLevelTarget: 0.9, members: ['agt-1', 'agt-2', 'agt-4'] };
const DEFAULTS = { answerWithinSeconds: 20, shortAbandonSeconds: 5 };

const withQueues = (timeZone = 'Europe/Berlin'): Partial<ServiceConfigInput> => {
  const config = testConfig();
  const provider = config.accounts[0]!.applications[0]!.providers[0]! as Record<string, unknown>;
  provider.queues = [
    { id: 'support', name: 'Support', numbers: ['+18005550100'], ...SUPPORT_LATER },
    { id: 'sales', name: 'Sales', providerQueues: ['sales-q'], ...SALES },
  ];
  return { accounts: config.accounts, timeZone };
};

/** A small deterministic generator: many varied calls, the same at every run. */
const generator = (seed: number) => () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
};

/** Calls of a day: in each queue and none, inbound and outbound, answered, abandoned, waiting and talking now, some across intervals and on their edges. */
const callsOf = (day: { from: number; to: number }, prefix: string, seed: number): ProviderCall[] => {
  const random = generator(seed);
  const calls: ProviderCall[] = [];
  for (let i = 0; i < 260; i += 1) {
    // Every fifth call starts on a quarter hour exactly, so starts and ends fall on interval edges too.
    const offset = i % 5 === 0 ? Math.floor(random() * 96) * 15 * MIN : Math.floor(random() * (day.to - day.from - 10 * MIN));
    const startedAt = day.from - 20 * MIN + offset;
    const kind = random();
    const queue = kind < 0.4 ? { queueID: 'support', queueName: 'Support' } : kind < 0.75 ? { queueID: 'sales', queueName: 'Sales' } : {};
    const isOutbound = kind > 0.9;
    const wait = Math.floor(random() * 60 * SEC);
    const talk = i % 7 === 0 ? 15 * MIN - wait : Math.floor(random() * 20 * MIN);
    const outcome = random();
    const fields: Partial<ProviderCall> = { ...(isOutbound ? {} : queue), isOutbound };
    if (startedAt > NOW) continue;
    if (startedAt + wait > NOW) calls.push(call(`${prefix}${i}`, startedAt, fields));
    else if (outcome < 0.7)
      calls.push(call(`${prefix}${i}`, startedAt, { ...fields, answeredAt: startedAt + wait, ...(startedAt + wait + talk > NOW ? {} : { endedAt: startedAt + wait + talk }) }));
    else calls.push(call(`${prefix}${i}`, startedAt, { ...fields, endedAt: startedAt + wait, isMissedCall: !isOutbound }));
  }
  return calls;
};

const STATES = ['available', 'ringing', 'on-call', 'available', 'inactive', 'offline', 'available', 'unknown'];
/** Each agent's changes of state over a day, from before it starts; some on interval edges. */
const statesOf = (day: { from: number; to: number }, seed: number): AgentStateChange[] => {
  const random = generator(seed);
  return ['agt-1', 'agt-2', 'agt-3', 'agt-4', 'agt-9'].flatMap((subscriberID, n) => {
    const changes: AgentStateChange[] = [];
    let at = day.from - HOUR - n * 7 * MIN;
    while (at < day.to + HOUR) {
      changes.push({ subscriberID, at, state: STATES[Math.floor(random() * STATES.length)] as string });
      at += random() < 0.2 ? 15 * MIN : Math.floor(random() * 80 * MIN) + SEC;
    }
    return changes;
  });
};

// ---- The reference: every figure recomputed from the calls and states by the contract's definitions. ----

const wallMinutes = (zone: string, at: number) => {
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone: zone, hourCycle: 'h23', hour: 'numeric', minute: 'numeric', second: 'numeric' }).formatToParts(new Date(at));
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return { minutes: part('hour') * 60 + part('minute'), second: part('second') };
};

/** Every instant of [from, to) whose wall clock shows a multiple of `minutes`, minute by minute, and `from`. */
const startsByHand = (zone: string, from: number, to: number, minutes: number): number[] => {
  const starts = [from];
  for (let at = Math.ceil((from + 1) / MIN) * MIN; at < to; at += MIN) {
    const wall = wallMinutes(zone, at);
    if (wall.second === 0 && wall.minutes % minutes === 0) starts.push(at);
  }
  return starts;
};

interface Timeline {
  from: number;
  parameters: Parameters;
}
const SUPPORT_TIMELINE: Timeline[] = [
  { from: SPRING.from - 30 * 86_400_000, parameters: SUPPORT },
  { from: CHANGE_AT, parameters: SUPPORT_LATER },
];
const SALES_TIMELINE: Timeline[] = [{ from: SPRING.from - 30 * 86_400_000, parameters: SALES }];
const inForce = (timeline: Timeline[], at: number) => [...timeline].reverse().find((entry) => entry.from <= at)?.parameters ?? (timeline[0] as Timeline).parameters;

/** The most calls live (started at or before, ending after) at any instant of [start, end): checked at the start and at every start inside. */
const peakByHand = (calls: readonly ProviderCall[], start: number, end: number) => {
  const endOf = (c: ProviderCall) => c.endedAt ?? NOW;
  const liveAt = (at: number) => calls.filter((c) => c.startedAt <= at && endOf(c) > at).length;
  const moments = [start, ...calls.map((c) => c.startedAt).filter((at) => at > start && at < end)];
  return Math.max(...moments.map(liveAt));
};

/** The staffed ms of one agent within [start, end): their state from each change to the next, unknown before the first. */
const staffedMsByHand = (changes: readonly AgentStateChange[], agent: string, start: number, end: number) => {
  const mine = changes.filter((c) => c.subscriberID === agent).sort((a, b) => a.at - b.at);
  let ms = 0;
  mine.forEach((change, i) => {
    if (['offline', 'inactive', 'unknown'].includes(change.state)) return;
    const until = Math.min(mine[i + 1]?.at ?? NOW, NOW, end);
    ms += Math.max(0, until - Math.max(change.at, start));
  });
  return ms;
};

const expectedReport = (
  zone: string,
  range: { from: number; to: number },
  minutes: number,
  calls: readonly ProviderCall[],
  changes: readonly AgentStateChange[],
  timelines: Record<string, Timeline[]>,
): IntervalRow[] => {
  const starts = startsByHand(zone, range.from, range.to, minutes);
  const rows: IntervalRow[] = [];
  starts.forEach((start, i) => {
    const end = starts[i + 1] ?? range.to;
    for (const queueID of ['support', 'sales', null]) {
      const timeline = queueID === null ? undefined : timelines[queueID];
      const mine = calls.filter((c) => (c.queueID ?? null) === queueID);
      const offered = mine.filter((c) => c.startedAt >= start && c.startedAt < end);
      const parametersOf = (c: ProviderCall) => {
        const p = timeline ? inForce(timeline, c.startedAt) : DEFAULTS;
        return { aw: p.answerWithinSeconds * SEC, sa: p.shortAbandonSeconds * SEC };
      };
      const atStart = timeline ? inForce(timeline, start) : undefined;
      const figures = figuresByHand(offered, parametersOf);
      const waits = offered.filter((c) => !c.isOutbound).map((c) => (c.answeredAt ?? c.endedAt ?? NOW) - c.startedAt);
      const elapsed = Math.min(end, NOW) - start;
      const staffed = atStart ? atStart.members.reduce((sum, agent) => sum + staffedMsByHand(changes, agent, start, end), 0) : 0;
      rows.push({
        start: iso(start),
        queueID,
        answerWithinSeconds: atStart?.answerWithinSeconds ?? DEFAULTS.answerWithinSeconds,
        shortAbandonSeconds: atStart?.shortAbandonSeconds ?? DEFAULTS.shortAbandonSeconds,
        serviceLevelTarget: atStart?.serviceLevelTarget ?? null,
        ...figures,
        longestWaitSeconds: waits.length === 0 ? 0 : Math.round(Math.max(...waits) / 100) / 10,
        peakConcurrentCalls: peakByHand(mine, start, end),
        agentsStaffed: atStart === undefined ? null : elapsed <= 0 ? 0 : Math.round((staffed / elapsed) * 100) / 100,
        agentsNeeded:
          atStart === undefined
            ? null
            : figures.offered === 0
              ? 0
              : figures.averageTalkSeconds === null
                ? null
                : agentsFor({
                    offeredPerHour: (figures.offered * HOUR) / (end - start),
                    averageHandleSeconds: figures.averageTalkSeconds,
                    answerWithinSeconds: atStart.answerWithinSeconds,
                    serviceLevelTarget: atStart.serviceLevelTarget,
                  }).agents,
      });
    }
  });
  return rows;
};

// ---- The service ----

let t: TestApp;
const calls = [
  ...callsOf(SPRING, 's', 11),
  ...callsOf(AUTUMN, 'a', 23),
  call('waiting', NOW - 40 * SEC, { queueID: 'support', queueName: 'Support' }),
  call('talking', NOW - 30 * MIN, { queueID: 'sales', queueName: 'Sales', answeredAt: NOW - 29 * MIN }),
];
const changes = [...statesOf(SPRING, 5), ...statesOf(AUTUMN, 9)];

const recordParameters = async (queueID: string, name: string, p: Parameters, at: number) =>
  t.store.recordQueueParameters(pbx, [{ queueID, name, answerWithinMs: p.answerWithinSeconds * SEC, shortAbandonMs: p.shortAbandonSeconds * SEC, serviceLevelTarget: p.serviceLevelTarget, members: p.members }], at);

beforeEach(async () => {
  t = await buildTestApp(withQueues());
  t.clock.set(NOW);
  await t.store.importCalls(pbx, calls);
  t.phone('acme/support/pbx').calls = calls.filter((c) => c.endedAt === undefined);
  await t.store.recordAgentStates(pbx, changes);
  await recordParameters('support', 'Support', SUPPORT, SUPPORT_TIMELINE[0]!.from);
  await recordParameters('sales', 'Sales', SALES, SALES_TIMELINE[0]!.from);
  await recordParameters('support', 'Support', SUPPORT_LATER, CHANGE_AT);
  await t.app.providers.syncAll();
});
afterEach(async () => {
  await t.app.close();
});

const get = (query: string, token: string = tokens.acmeAll) => t.as(token, { method: 'GET', url: `${paths.intervalReport(pbx)}${query}` });

const report = async (query: string): Promise<IntervalReport> => {
  const res = await get(query);
  expect(res.statusCode, res.body).toBe(200);
  return intervalReportSchema.parse(res.json());
};

const TIMELINES = { support: SUPPORT_TIMELINE, sales: SALES_TIMELINE };

describe('GET interval report', () => {
  it('has 23 hours of intervals on the day the clocks go forward, each figure as the definitions recount it', async () => {
    const answer = await report(`?fromDate=${SPRING.date}&toDate=${SPRING.next}`);
    expect(answer.fromDate).toBe(iso(SPRING.from));
    expect(answer.toDate).toBe(iso(SPRING.to));
    expect(answer.intervalMinutes).toBe(15);
    expect(answer.queues).toEqual([
      { queueID: 'support', name: 'Support' },
      { queueID: 'sales', name: 'Sales' },
      { queueID: null, name: 'No queue' },
    ]);
    expect(answer.rows).toHaveLength(23 * 4 * 3);
    expect(answer.rows).toEqual(expectedReport('Europe/Berlin', SPRING, 15, calls, changes, TIMELINES));
    expect(answer.rows.some((row) => row.peakConcurrentCalls > 1 && row.agentsStaffed !== null && row.agentsStaffed > 0 && row.agentsNeeded !== null && row.agentsNeeded > 0)).toBe(true);
  });

  it('has 25 hours of hourly intervals on the day the clocks go back, up to now', async () => {
    const answer = await report(`?fromDate=${AUTUMN.date}&toDate=${AUTUMN.next}&intervalMinutes=60`);
    expect(answer.rows).toHaveLength(25 * 3);
    expect(answer.rows.filter((row) => row.queueID === null).map((row) => row.start.slice(11, 16))).toEqual([
      '22:00', '23:00', '00:00', '01:00', '02:00', '03:00', '04:00', '05:00', '06:00', '07:00', '08:00', '09:00', '10:00',
      '11:00', '12:00', '13:00', '14:00', '15:00', '16:00', '17:00', '18:00', '19:00', '20:00', '21:00', '22:00',
    ]);
    expect(answer.rows).toEqual(expectedReport('Europe/Berlin', AUTUMN, 60, calls, changes, TIMELINES));
    expect(answer.rows.some((row) => row.waiting > 0)).toBe(true);
  });

  it('cuts the first and last interval at fromDate and toDate, and counts calls live across intervals in each', async () => {
    const range = { from: Date.parse('2026-10-25T06:05:00Z'), to: Date.parse('2026-10-25T09:50:00Z') };
    const answer = await report(`?fromDate=${iso(range.from)}&toDate=${iso(range.to)}&intervalMinutes=30`);
    expect(answer.rows[0]?.start).toBe(iso(range.from));
    expect(answer.rows[3]?.start).toBe('2026-10-25T06:30:00.000Z');
    expect(answer.rows).toEqual(expectedReport('Europe/Berlin', range, 30, calls, changes, TIMELINES));
  });

  it('keeps the intervals before a change of parameters as they were', async () => {
    const before = await (async () => {
      await t.app.close();
      t = await buildTestApp(withQueues());
      t.clock.set(NOW);
      await t.store.importCalls(pbx, calls);
      t.phone('acme/support/pbx').calls = calls.filter((c) => c.endedAt === undefined);
      await t.store.recordAgentStates(pbx, changes);
      await recordParameters('support', 'Support', SUPPORT, SUPPORT_TIMELINE[0]!.from);
      await recordParameters('sales', 'Sales', SALES, SALES_TIMELINE[0]!.from);
      await t.app.providers.syncAll();
      return report(`?fromDate=${SPRING.date}&toDate=${SPRING.next}&queueID=support`);
    })();
    await recordParameters('support', 'Support', SUPPORT_LATER, CHANGE_AT);
    const after = await report(`?fromDate=${SPRING.date}&toDate=${SPRING.next}&queueID=support`);
    const ended = (row: IntervalRow) => Date.parse(row.start) + 15 * MIN <= CHANGE_AT;
    expect(after.rows.filter(ended)).toEqual(before.rows.filter(ended));
    expect(after.rows.filter(ended).length).toBe(36);
    expect(after.rows.filter((row) => !ended(row)).every((row) => row.answerWithinSeconds === 30 || row.start === '2026-03-29T08:00:00.000Z')).toBe(true);
    expect(after.rows.filter((row) => !ended(row))).not.toEqual(before.rows.filter((row) => !ended(row)));
  });

  it('reports only the queues asked for, or the calls in no queue', async () => {
    const support = await report(`?fromDate=${SPRING.date}&toDate=${SPRING.next}&queueID=support&intervalMinutes=60`);
    expect(support.queues).toEqual([{ queueID: 'support', name: 'Support' }]);
    expect(support.rows).toEqual(expectedReport('Europe/Berlin', SPRING, 60, calls, changes, TIMELINES).filter((row) => row.queueID === 'support'));
    const none = await report(`?fromDate=${SPRING.date}&toDate=${SPRING.next}&queueID=none&intervalMinutes=60`);
    expect(none.queues).toEqual([{ queueID: null, name: 'No queue' }]);
    expect(none.rows).toEqual(expectedReport('Europe/Berlin', SPRING, 60, calls, changes, TIMELINES).filter((row) => row.queueID === null));
  });

  it('starts the intervals from today’s midnight by default', async () => {
    const answer = await report('?intervalMinutes=60');
    expect(answer.fromDate).toBe('2026-10-24T22:00:00.000Z');
    expect(answer.toDate).toBe(iso(NOW));
    expect(answer.rows).toHaveLength(22 * 3);
  });

  it.each([
    ['?fromDate=yesterday', 'fromDate', /fromDate/],
    ['?fromDate=2026-10-02&toDate=2026-10-01', 'fromDate', /not before toDate/],
    ['?fromDate=2026-09-01&toDate=2026-10-05', 'fromDate', /longer than 31 days/],
    ['?intervalMinutes=20', 'intervalMinutes', /15, 30 or 60/],
    ['?queueID=Not%20a%20queue', 'queueID', /queueID/],
    ['?bucketSeconds=60', 'bucketSeconds', /not a known query parameter/],
  ])('answers %s with a 400 naming %s', async (query, field, detail) => {
    const res = await get(query);
    expect(res.statusCode).toBe(400);
    const problem = problemSchema.parse(res.json());
    expect(problem.code).toBe('invalid_request');
    expect(problem.errors?.map((e) => e.field)).toContain(field);
    expect(problem.detail).toMatch(detail);
  });

  it('answers a queue the provider does not have with a 404 naming it, like the other queue filters', async () => {
    const res = await get('?queueID=billing');
    expect(res.statusCode).toBe(404);
    expect(problemSchema.parse(res.json()).errors?.map((e) => e.field)).toEqual(['queueID']);
  });

  it('follows the other analytics’ auth and scope rules', async () => {
    expect((await t.app.inject({ method: 'GET', url: paths.intervalReport(pbx) })).statusCode).toBe(401);
    expect((await get('', tokens.acmeSalesWrite)).json().code).toBe('forbidden');
    expect((await get('', tokens.globex)).statusCode).toBe(404);
    const otherApp = await t.as(tokens.acmeSupportRead, { method: 'GET', url: paths.intervalReport({ ...pbx, applicationID: 'sales' }) });
    expect(otherApp.statusCode).toBe(404);
  });
});

describe('GET interval report in a zone half an hour off UTC', () => {
  it('starts hourly intervals on its hour, half past in UTC', async () => {
    await t.app.close();
    t = await buildTestApp(withQueues('Asia/Kolkata'));
    t.clock.set(NOW);
    await t.app.providers.syncAll();
    const answer = await report('?fromDate=2026-10-25&toDate=2026-10-26&intervalMinutes=60');
    expect(answer.fromDate).toBe('2026-10-24T18:30:00.000Z');
    const starts = answer.rows.filter((row) => row.queueID === null).map((row) => row.start);
    expect(starts).toHaveLength(24);
    expect(starts.every((start) => start.slice(13, 16) === ':30')).toBe(true);
    const halves = await report('?fromDate=2026-10-25&toDate=2026-10-26&intervalMinutes=30');
    expect(halves.rows.filter((row) => row.queueID === null)).toHaveLength(48);
  });
});
