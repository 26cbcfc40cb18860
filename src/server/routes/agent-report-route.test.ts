import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { paths } from '../../contract/paths.js';
import { problemSchema } from '../../contract/problem.js';
import { agentReportSchema, type AgentTime } from '../../contract/reports.js';
import { providerCall } from '../test-support/provider-call.js';
import { buildTestApp, tokens, type TestApp } from '../test-support/test-app.js';
import { createTestHistory } from '../test-support/test-history.js';

const pbx = { accountID: 'acme', applicationID: 'support', providerID: 'pbx' };
const HOUR = 3_600_000;
const at = (text: string) => Date.parse(text);
// Berlin's autumn change: 25 October 2026 has 25 hours, from 22:00Z the day before to 23:00Z.
const DAY_FROM = at('2026-10-24T22:00:00Z');
const DAY_TO = at('2026-10-25T23:00:00Z');

let t: TestApp;
beforeEach(async () => {
  t = await buildTestApp({
    timeZone: 'Europe/Berlin',
    accounts: [
      {
        id: 'acme',
        name: 'Acme',
        applications: [
          {
            id: 'support',
            name: 'Support',
            providers: [
              {
                id: 'pbx',
                name: 'Acme PBX',
                type: 'simulator',
                queues: [
                  { id: 'sales', name: 'Sales', members: ['a1'] },
                  { id: 'care', name: 'Care', members: ['a2'] },
                ],
              },
            ],
          },
          { id: 'sales', name: 'Sales', providers: [{ id: 'pbx', name: 'Sales PBX', type: 'simulator' }] },
        ],
        tokens: [
          { name: 'all', token: tokens.acmeAll, applications: '*', permissions: ['calls:read', 'calls:write'] },
          { name: 'sales-write', token: tokens.acmeSalesWrite, applications: ['sales'], permissions: ['calls:write'] },
          { name: 'support-read', token: tokens.acmeSupportRead, applications: ['support'], permissions: ['calls:read'] },
        ],
      },
    ],
  });
  t.clock.set(DAY_TO + 10 * HOUR);
  const states = (id: string, rows: [string, string][]) => rows.map(([when, state]) => ({ subscriberID: id, at: at(when), state, firstName: id.toUpperCase(), lastName: 'Agent', extension: id.slice(-1) }));
  await t.store.recordAgentStates(pbx, [
    ...states('a1', [
      ['2026-10-24T20:00:00Z', 'available'],
      ['2026-10-25T00:30:00Z', 'on-call'],
      // Across the hour that happens twice (02:00 to 03:00 local, 00:00Z to 02:00Z).
      ['2026-10-25T01:30:00Z', 'available'],
      ['2026-10-25T12:00:00Z', 'offline'],
    ]),
    ...states('a2', [['2026-10-25T06:00:00Z', 'available']]),
    ...states('a3', [['2026-10-25T06:00:00Z', 'ringing']]),
  ]);
  await t.store.importCalls(pbx, [
    providerCall('c1', at('2026-10-25T00:29:50Z'), { subscriberID: 'a1', answeredAt: at('2026-10-25T00:30:00Z'), endedAt: at('2026-10-25T01:30:00Z') }),
  ]);
});
afterEach(async () => {
  await t.app.close();
});

const get = (url: string, token: string = tokens.acmeAll) => t.as(token, { method: 'GET', url });

const report = async (query: string) => {
  const res = await get(`${paths.agentReport(pbx)}${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return agentReportSchema.parse(res.json());
};

const states = (a: AgentTime | undefined) =>
  a && [a.unknownSeconds, a.offlineSeconds, a.inactiveSeconds, a.availableSeconds, a.ringingSeconds, a.onCallSeconds].reduce((x, y) => x + y * 1000, 0);

describe('GET …/reports/agents', () => {
  it('reads calendar dates as midnight in the service’s zone, and the six states add up to a 25-hour day', async () => {
    const body = await report('?fromDate=2026-10-25&toDate=2026-10-26');
    expect([body.fromDate, body.toDate]).toEqual([new Date(DAY_FROM).toISOString(), new Date(DAY_TO).toISOString()]);
    expect(body.agents.map((a) => a.subscriberID)).toEqual(['a1', 'a2', 'a3']);
    for (const agent of body.agents) expect(states(agent)).toBe(25 * HOUR);
    const a1 = body.agents[0];
    expect(a1).toEqual({
      subscriberID: 'a1',
      firstName: 'A1',
      lastName: 'Agent',
      extension: '1',
      unknownSeconds: 0,
      offlineSeconds: 11 * 3600,
      inactiveSeconds: 0,
      availableSeconds: 2.5 * 3600 + 10.5 * 3600,
      ringingSeconds: 0,
      onCallSeconds: 3600,
      loggedInSeconds: 14 * 3600,
      answeredCalls: 1,
      unansweredCalls: 0,
      outboundPlaced: 0,
      talkSeconds: 3600,
      averageHandleSeconds: 3600,
      occupancy: Math.round((1 / 14) * 1000) / 1000,
    });
    expect(body.agents[1]).toMatchObject({ unknownSeconds: 8 * 3600, availableSeconds: 17 * 3600, occupancy: 0 });
  });

  it('ends the range at now, and by default covers today from midnight', async () => {
    t.clock.set(at('2026-10-25T03:00:00Z'));
    const body = await report('');
    expect([body.fromDate, body.toDate]).toEqual([new Date(DAY_FROM).toISOString(), '2026-10-25T03:00:00.000Z']);
    expect(states(body.agents.find((a) => a.subscriberID === 'a1'))).toBe(5 * HOUR);
  });

  it('lists the members of the queues asked for, as configured now, or the agents in no queue', async () => {
    const ids = async (queueID: string) => (await report(`?fromDate=2026-10-25&toDate=2026-10-26&queueID=${queueID}`)).agents.map((a) => a.subscriberID);
    expect(await ids('sales')).toEqual(['a1']);
    expect(await ids('sales,care')).toEqual(['a1', 'a2']);
    expect(await ids('none')).toEqual(['a3']);
  });

  it('answers 400 naming the field for a bad date, an empty or reversed range and one past 31 days; 404 for an unknown queue', async () => {
    const problem = async (query: string, status: number) => {
      const res = await get(`${paths.agentReport(pbx)}${query}`);
      expect(res.statusCode, res.body).toBe(status);
      return problemSchema.parse(res.json());
    };
    expect((await problem('?fromDate=2026-02-30', 400)).errors?.[0]?.field).toBe('fromDate');
    expect((await problem('?toDate=yesterday', 400)).errors?.[0]?.field).toBe('toDate');
    expect((await problem('?fromDate=2026-10-26&toDate=2026-10-25', 400)).errors?.[0]?.field).toBe('fromDate');
    expect((await problem('?fromDate=2026-10-25&toDate=2026-10-25', 400)).errors?.[0]?.field).toBe('fromDate');
    expect((await problem('?fromDate=2026-09-01&toDate=2026-10-03', 400)).errors?.[0]?.field).toBe('fromDate');
    // 31 whole days across the autumn change (one of them 25 hours long) is not too long.
    await report('?fromDate=2026-10-01&toDate=2026-11-01');
    expect((await problem('?queueID=nope', 404)).errors?.[0]?.field).toBe('queueID');
    expect((await problem('?interval=15', 400)).errors?.[0]?.field).toBe('interval');
  });

  it('answers 403 without calls:read and 404 for a provider the token may not see', async () => {
    expect((await get(paths.agentReport({ ...pbx, applicationID: 'sales' }), tokens.acmeSalesWrite)).statusCode).toBe(403);
    expect((await get(paths.agentReport({ ...pbx, applicationID: 'sales' }), tokens.acmeSupportRead)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: paths.agentReport(pbx) })).statusCode).toBe(401);
  });
});

describe('the journal of agent states, as the service writes it', () => {
  it('journals the board from its first look and every agent as unknown when it stops, so a report counts the time it was down as unknown', async () => {
    const history = await createTestHistory();
    const subscriber = { providerSubscriberID: 'agt-1', firstName: 'Ada', lastName: 'Byron', email: 'ada@example.com', extension: '101', number: '15550100101', registered: true, active: true };
    const run = async (from: number, minutes: number) => {
      const app = await buildTestApp({}, { history });
      app.clock.set(from);
      app.phone('acme/support/pbx').subscribers = [subscriber];
      await app.app.providers.syncAll();
      app.clock.advance(minutes * 60_000);
      await app.app.close();
    };
    try {
      const T = at('2026-11-23T08:00:00Z');
      await run(T, 60);
      await run(T + 2 * HOUR, 60);
      const reader = await history.open();
      try {
        const [agent] = await reader.agentTime(pbx, { from: T - HOUR, to: T + 4 * HOUR, now: T + 4 * HOUR });
        expect(agent).toMatchObject({ subscriberID: 'agt-1', firstName: 'Ada', stateMs: { unknown: 3 * HOUR, available: 2 * HOUR } });
      } finally {
        await reader.close();
      }
    } finally {
      await history.dispose();
    }
  });
});
