import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentReport, IntervalReport } from '../../contract/reports.js';
import { emptySums, figuresOf } from '../history/service-level-figures.js';
import { buildTestApp, testConfig, tokens, type TestApp } from '../test-support/test-app.js';
import { historyKind } from '../test-support/test-history.js';
import { providerCall } from '../test-support/provider-call.js';
import { startTestSmtpServer, type TestSmtpServer } from '../test-support/test-smtp-server.js';
import type { ReportSource } from './report-source.js';
import { agentsCsv, intervalsCsv } from './report-mail.js';
import { paths } from '../../contract/paths.js';

// T0 is 2026-11-22T09:00Z, 10:00 in Berlin: "daily 07:00" owes Saturday 21 November, 23:00Z to 23:00Z.
const scope = { accountID: 'acme', applicationID: 'support', providerID: 'pbx' };
const day = (hhmmss: string) => Date.parse(`2026-11-21T${hhmmss}Z`);
const PASSWORD = 'smtp-secret-password-value';

let t: TestApp | undefined;
let smtp: TestSmtpServer | undefined;
afterEach(async () => {
  await t?.app.close();
  await smtp?.close();
  t = undefined;
  smtp = undefined;
});

const queues = [
  { id: 'support', name: 'Support', answerWithinSeconds: 20, serviceLevelTarget: 0.8 },
  { id: 'billing', name: 'Billing', answerWithinSeconds: 30, serviceLevelTarget: 0.9 },
];

const configWith = (port: number, schedule: object = {}, smtpExtra: object = {}) => {
  const config = testConfig();
  Object.assign(config.accounts[0]!.applications[0]!.providers[0]!, { queues });
  return {
    accounts: config.accounts,
    timeZone: 'Europe/Berlin',
    reports: {
      smtp: { host: '127.0.0.1', port, security: 'none', from: 'Callboard <reports@example.com>', ...smtpExtra },
      schedules: [
        {
          id: 'morning',
          account: 'acme',
          application: 'support',
          provider: 'pbx',
          at: 'daily 07:00',
          recipients: ['ops@example.com', 'lead@example.com'],
          ...schedule,
        },
      ],
    },
  } as object;
};

/** Four calls to Support (two answered in time, one late, one abandoned), one to Billing, and one the day before. */
const seedCalls = (app: TestApp) =>
  app.store.importCalls(scope, [
    providerCall('s1', day('08:00:00'), { queueID: 'support', answeredAt: day('08:00:10'), endedAt: day('08:03:00') }),
    providerCall('s2', day('09:00:00'), { queueID: 'support', answeredAt: day('09:00:15'), endedAt: day('09:05:00') }),
    providerCall('s3', day('10:00:00'), { queueID: 'support', answeredAt: day('10:00:40'), endedAt: day('10:02:00') }),
    providerCall('s4', day('11:00:00'), { queueID: 'support', endedAt: day('11:00:30') }),
    providerCall('b1', day('12:00:00'), { queueID: 'billing', answeredAt: day('12:00:05'), endedAt: day('12:01:00') }),
    providerCall('old', Date.parse('2026-11-20T22:30:00Z'), {
      queueID: 'support',
      answeredAt: Date.parse('2026-11-20T22:31:00Z'),
      endedAt: Date.parse('2026-11-20T22:32:00Z'),
    }),
  ]);

const intervalReport: IntervalReport = {
  fromDate: '2026-11-20T23:00:00.000Z',
  toDate: '2026-11-21T23:00:00.000Z',
  intervalMinutes: 60,
  timeZone: 'Europe/Berlin',
  queues: [{ queueID: 'support', name: 'Support, "first line"' }],
  rows: [
    {
      ...figuresOf({ ...emptySums(), offered: 4, answered: 3, answeredWithin: 2, abandoned: 1 }),
      start: '2026-11-21T08:00:00.000Z',
      queueID: 'support',
      answerWithinSeconds: 20,
      shortAbandonSeconds: 5,
      serviceLevelTarget: 0.8,
      longestWaitSeconds: 40,
      peakConcurrentCalls: 2,
      agentsStaffed: 1.5,
      agentsNeeded: 2,
    },
  ],
};

const agentReport: AgentReport = {
  fromDate: '2026-11-20T23:00:00.000Z',
  toDate: '2026-11-21T23:00:00.000Z',
  agents: [
    {
      subscriberID: 'agt-1',
      firstName: 'Ann',
      lastName: 'Smith, Jr.',
      extension: '101',
      unknownSeconds: 0,
      offlineSeconds: 43_200,
      inactiveSeconds: 3600,
      availableSeconds: 30_000,
      ringingSeconds: 600,
      onCallSeconds: 9000,
      loggedInSeconds: 43_200,
      answeredCalls: 30,
      unansweredCalls: 2,
      outboundPlaced: 4,
      talkSeconds: 9000,
      averageHandleSeconds: 264.7,
      occupancy: 0.228,
    },
  ],
};

const fakeSource: ReportSource = { intervals: async () => intervalReport, agents: async () => agentReport };

/** Records as RFC 4180 reads them: quoted fields may hold commas, doubled quotes and line breaks. */
const parseCsv = (text: string): string[][] => {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (quoted && c === '"' && text[i + 1] === '"') {
      field += '"';
      i += 1;
    } else if (c === '"') quoted = !quoted;
    else if (quoted || (c !== ',' && c !== '\r')) field += c;
    else if (c === ',') {
      record.push(field);
      field = '';
    } else {
      expect(text[i + 1]).toBe('\n');
      records.push([...record, field]);
      record = [];
      field = '';
      i += 1;
    }
  }
  expect(field + record.join('')).toBe('');
  return records;
};

const logLines = () => {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n')) if (line) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { lines, logger: { level: 'info', stream } };
};

describe(`scheduled reports by email (${historyKind})`, () => {
  it("sends the day's figures per queue and both reports as CSV to a real SMTP server, once", async () => {
    smtp = await startTestSmtpServer();
    t = await buildTestApp(configWith(smtp.port), { reportSource: fakeSource });
    await seedCalls(t);
    await t.app.reportScheduler?.runDue();
    expect(smtp.accepted).toHaveLength(1);
    const [mail] = smtp.accepted;
    const parsed = mail!.parsed;
    expect(mail!.to).toEqual(['ops@example.com', 'lead@example.com']);
    expect(parsed.from?.value).toEqual([{ name: 'Callboard', address: 'reports@example.com' }]);
    expect(parsed.subject).toBe('Acme · Support · Acme PBX: report "morning" for 2026-11-21');
    expect(parsed.messageId).toMatch(/^<report\.morning\.2026-11-21\.[0-9a-f-]+@example\.com>$/);
    expect(parsed.headers.get('x-callboard-report')).toBe('morning/2026-11-21');

    // Support: 2 of 4 in 20 s (the late one and the abandoned one count against), answers of 10, 15 and 40 s.
    const html = parsed.html || '';
    const row = (name: string) => {
      const match = new RegExp(`<tr><td[^>]*>${name}</td>(.*?)</tr>`).exec(html);
      return [...(match?.[1] ?? '').matchAll(/<td[^>]*>([^<]*)<\/td>/g)].map((cell) => cell[1]);
    };
    expect(row('Support')).toEqual(['4', '3', '50.0 % in 20 s', '80.0 % (missed)', '25.0 %', '21.7 s', '40.0 s']);
    expect(row('Billing')).toEqual(['1', '1', '100.0 % in 30 s', '90.0 % (met)', '0.0 %', '5.0 s', '5.0 s']);
    expect(html).not.toContain('No queue');
    expect(html).not.toMatch(/<style|class=/);
    expect(parsed.text).toMatch(/^Support\s+4\s+3\s+50\.0 % in 20 s\s+80\.0 % \(missed\)\s+25\.0 %\s+21\.7 s\s+40\.0 s$/m);

    const files = Object.fromEntries(parsed.attachments.map((a) => [a.filename, a]));
    expect(Object.keys(files)).toEqual(['morning-2026-11-21-intervals.csv', 'morning-2026-11-21-agents.csv']);
    expect(files['morning-2026-11-21-intervals.csv']?.contentType).toBe('text/csv');
    const intervals = parseCsv(files['morning-2026-11-21-intervals.csv']!.content.toString('utf8'));
    expect(intervals[0]?.slice(0, 4)).toEqual(['start', 'queueID', 'queueName', 'answerWithinSeconds']);
    const record = Object.fromEntries(intervals[0]!.map((name, i) => [name, intervals[1]?.[i]]));
    expect(record).toMatchObject({
      start: '2026-11-21T08:00:00.000Z',
      queueName: 'Support, "first line"',
      offered: '4',
      serviceLevel: '0.5',
      agentsStaffed: '1.5',
    });
    const agents = parseCsv(files['morning-2026-11-21-agents.csv']!.content.toString('utf8'));
    expect(agents).toHaveLength(2);
    expect(agents[0]).toHaveLength(17);
    expect(agents[1]?.slice(0, 4)).toEqual(['agt-1', 'Ann', 'Smith, Jr.', '101']);

    // The period is sent: neither this instance nor a restart sends it again, and the next day's goes out at its time.
    await t.app.reportScheduler?.runDue();
    expect(await t.store.reportSends.read({ scheduleID: 'morning', period: '2026-11-21' })).toMatchObject({
      status: 'sent',
      attempts: 1,
      messageID: parsed.messageId,
    });
    t.clock.set(Date.parse('2026-11-23T05:59:00Z'));
    await t.app.reportScheduler?.runDue();
    expect(smtp.accepted).toHaveLength(1);
    t.clock.set(Date.parse('2026-11-23T06:00:00Z'));
    await t.app.reportScheduler?.runDue();
    expect(smtp.accepted.map((m) => m.parsed.subject)).toEqual([
      'Acme · Support · Acme PBX: report "morning" for 2026-11-21',
      'Acme · Support · Acme PBX: report "morning" for 2026-11-22',
    ]);
  });

  it('after a stop of days sends the latest missed period once at start, and none of the older ones', async () => {
    smtp = await startTestSmtpServer();
    t = await buildTestApp(configWith(smtp.port, { reports: ['summary'] }));
    // Started on Wednesday at 06:00 Berlin: Monday's period was due yesterday, and Tuesday's is not due yet.
    t.clock.set(Date.parse('2026-11-25T05:00:00Z'));
    await t.app.reportScheduler?.runDue();
    await t.app.reportScheduler?.runDue();
    expect(smtp.accepted.map((m) => m.parsed.subject)).toEqual(['Acme · Support · Acme PBX: report "morning" for 2026-11-23']);
    expect(await t.store.reportSends.read({ scheduleID: 'morning', period: '2026-11-22' })).toBeUndefined();
  });

  it("attaches the journal's reports of the chosen queues, exactly as their endpoints answer for the period", async () => {
    smtp = await startTestSmtpServer();
    const app = await buildTestApp(configWith(smtp.port, { queues: ['billing'], reports: ['summary', 'intervals', 'agents'] }));
    t = app;
    await seedCalls(app);
    await t.app.reportScheduler?.runDue();
    const parsed = smtp.accepted[0]!.parsed;
    expect(parsed.html).toContain('Billing');
    expect(parsed.html).not.toContain('Support</td>');
    const attached = (name: string) => parsed.attachments.find((a) => a.filename === `morning-2026-11-21-${name}.csv`)?.content.toString('utf8');
    const ask = async (path: string, more = '') => {
      const answer = await app.as(tokens.acmeAll, { method: 'GET', url: `${path}?fromDate=2026-11-21&toDate=2026-11-22&queueID=billing${more}` });
      expect(answer.statusCode).toBe(200);
      return answer.json();
    };
    const intervals = (await ask(paths.intervalReport(scope), '&intervalMinutes=60')) as IntervalReport;
    // The day of Berlin, in hours; billing's one call at 12:00 UTC is in the 13:00 (local) hour's row.
    expect(intervals.rows).toHaveLength(24);
    expect(intervals.rows.find((row) => row.offered > 0)).toMatchObject({ start: '2026-11-21T12:00:00.000Z', queueID: 'billing', offered: 1, answered: 1 });
    expect(attached('intervals')).toBe(intervalsCsv(intervals));
    expect(attached('agents')).toBe(agentsCsv((await ask(paths.agentReport(scope))) as AgentReport));
  });

  it('retries a refused send with backoff under the same Message-ID, and shows the failure on /readyz and in the log without the password', async () => {
    smtp = await startTestSmtpServer({ user: 'reports', password: PASSWORD });
    smtp.refuseNext(2, 'Mailbox busy, try again later');
    const { lines, logger } = logLines();
    t = await buildTestApp(configWith(smtp.port, { reports: ['summary'] }, { user: 'reports', password: PASSWORD }), { logger });
    await t.app.providers.syncAll();
    await t.app.reportScheduler?.runDue();
    expect(smtp.arrived).toHaveLength(1);
    expect(smtp.accepted).toHaveLength(0);
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({
      status: 'ready',
      details: {
        reportsFailing: [
          {
            scheduleID: 'morning',
            period: '2026-11-21',
            attempts: 1,
            reason: 'the SMTP server answered 451',
            nextAttemptAt: '2026-11-22T09:00:30.000Z',
          },
        ],
      },
    });
    const failure = lines.find((line) => line.msg === 'scheduled report: the send failed; it is tried again then');
    expect(failure).toMatchObject({
      level: 50,
      schedule: 'morning',
      period: '2026-11-21',
      attempt: 1,
      nextAttemptAt: '2026-11-22T09:00:30.000Z',
    });

    // Not before its time; then again after 30 s, refused again, and after 60 s more accepted.
    t.clock.advance(29_999);
    await t.app.reportScheduler?.runDue();
    expect(smtp.arrived).toHaveLength(1);
    t.clock.advance(1);
    await t.app.reportScheduler?.runDue();
    expect(smtp.arrived).toHaveLength(2);
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).json().details.reportsFailing[0]).toMatchObject({
      attempts: 2,
      nextAttemptAt: '2026-11-22T09:01:30.000Z',
    });
    t.clock.advance(59_999);
    await t.app.reportScheduler?.runDue();
    expect(smtp.arrived).toHaveLength(2);
    t.clock.advance(1);
    await t.app.reportScheduler?.runDue();
    expect(smtp.accepted).toHaveLength(1);
    expect(smtp.accepted[0]?.user).toBe('reports');
    expect(new Set(smtp.arrived.map((m) => m.parsed.messageId)).size).toBe(1);
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).json()).toEqual({ status: 'ready' });
    expect(await t.store.reportSends.read({ scheduleID: 'morning', period: '2026-11-21' })).toMatchObject({
      status: 'sent',
      attempts: 3,
    });
    expect(lines.filter((line) => line.msg === 'scheduled report sent')).toHaveLength(1);
    expect(JSON.stringify(lines)).not.toContain(PASSWORD);
  });

  it('are off without a reports section', async () => {
    t = await buildTestApp();
    await t.app.providers.syncAll();
    expect(t.app.reportScheduler).toBeUndefined();
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).json()).toEqual({ status: 'ready' });
  });
});
