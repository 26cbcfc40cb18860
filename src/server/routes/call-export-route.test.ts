import { request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { callRecordSchema, listCallsResponseSchema, type CallRecord } from '../../contract/call-record.js';
import { paths } from '../../contract/paths.js';
import { problemSchema } from '../../contract/problem.js';
import { EXPORT_COUNT_HEADER, RETENTION_CUT_HEADER } from '../../contract/reports.js';
import type { ServiceConfigInput } from '../config/config-schema.js';
import { EXPORT_APPLICATION_NAME } from '../history/export-cursor.js';
import type { ProviderCall } from '../providers/phone-system.js';
import { buildTestApp, T0, testConfig, tokens, type TestApp } from '../test-support/test-app.js';

const acmePbx = { accountID: 'acme', applicationID: 'support', providerID: 'pbx' };
const MIN = 60_000;
const DAY = 86_400_000;
const FROM = '2026-11-22T08:00:00.000Z';
const TO = '2026-11-22T09:00:00.000Z';
const from = Date.parse(FROM);

const call = (id: string, startedAt: number, extra: Partial<ProviderCall> = {}): ProviderCall => ({
  callID: id,
  providerCallID: `p-${id}`,
  isOutbound: false,
  isMissedCall: false,
  remoteNumber: '15555550100',
  startedAt,
  endedAt: startedAt + MIN,
  ...extra,
});

const QUEUES = [
  { id: 'support', name: 'Support', numbers: ['+18005550100'], members: [] },
  { id: 'sales', name: 'Sales', numbers: ['+18005550200'], members: [] },
];

const withQueues = (overrides: Partial<ServiceConfigInput> = {}): Partial<ServiceConfigInput> => {
  const config = testConfig();
  const provider = config.accounts[0]!.applications[0]!.providers[0]! as Record<string, unknown>;
  provider.queues = QUEUES;
  return { accounts: config.accounts, ...overrides };
};

/** Every field known, names that need quoting, ties on startedAt, and calls at the range's edges. */
const CALLS: ProviderCall[] = [
  call('edge-before', from - 1, { endedAt: from + MIN }),
  call('b-tie', from, { remoteName: 'Smith, John', queueID: 'support', queueName: 'Support' }),
  call('a-tie', from, { remoteName: 'The "Boss"', queueID: 'sales', queueName: 'Sales' }),
  call('multi', from + 5 * MIN, { remoteName: 'line one\r\nline two\nthree\rfour', isMissedCall: true, endedAt: from + 6 * MIN }),
  call('unicode', from + 10 * MIN, { remoteName: 'Zoë 東京 😀', remoteNumber: '' }),
  call('formula', from + 12 * MIN, { remoteName: '=HYPERLINK("http://x")', calledNumber: '18005550100' }),
  call('empty-name', from + 13 * MIN, { remoteName: '' }),
  call('full', from + 15 * MIN, {
    isOutbound: true,
    remoteName: 'Full',
    answeredAt: from + 15 * MIN + 5000,
    endedAt: from + 20 * MIN,
    chosenContactID: 'c-1',
    subscriberID: 'agt-1',
    subscriberFirstName: 'Ada',
    subscriberLastName: 'Lovelace',
    subscriberEmail: 'ada@example.com',
    subscriberExtension: '101',
    subscriberNumber: '15555550101',
    subscriberAnsweredAt: from + 15 * MIN,
    endedBy: 'floor-supervisor',
  }),
  call('edge-at-to', Date.parse(TO), { endedAt: Date.parse(TO) + MIN }),
];

/** The records the export must hold: the list's for the same window, but only those that started in [FROM, TO). */
const IN_RANGE = ['a-tie', 'b-tie', 'multi', 'unicode', 'formula', 'empty-name', 'full'];

let t: TestApp | undefined;
afterEach(async () => {
  await t?.app.close();
  t = undefined;
});

const start = async (overrides: Partial<ServiceConfigInput> = withQueues()) => {
  t = await buildTestApp(overrides);
  await t.store.importCalls(acmePbx, CALLS);
  return t;
};

const exportURL = (query: string) => `${paths.callExport(acmePbx)}?${query}`;
const get = (url: string, method: 'GET' | 'HEAD' = 'GET') => t!.as(tokens.acmeAll, { method, url });

const listRecords = async (): Promise<CallRecord[]> => {
  const res = await get(`${paths.listCalls(acmePbx)}?fromDate=${FROM}&toDate=${TO}`);
  expect(res.statusCode).toBe(200);
  return listCallsResponseSchema.parse(res.json()).calls.filter((record) => IN_RANGE.includes(record.callID));
};

/** RFC 4180, strictly: CRLF between records; an unquoted empty field is null, a quoted one "". */
const parseCsv = (text: string): (string | null)[][] => {
  const rows: (string | null)[][] = [];
  let row: (string | null)[] = [];
  let i = 0;
  for (;;) {
    let field: string | null;
    if (text[i] === '"') {
      field = '';
      i += 1;
      for (;;) {
        const quote = text.indexOf('"', i);
        if (quote < 0) throw new Error('an unterminated quoted field');
        field += text.slice(i, quote);
        i = quote + 1;
        if (text[i] !== '"') break;
        field += '"';
        i += 1;
      }
    } else {
      const end = text.slice(i).search(/[,\r\n"]/);
      const raw = end < 0 ? text.slice(i) : text.slice(i, i + end);
      if (end >= 0 && text[i + end] === '"') throw new Error(`a quote inside an unquoted field at ${i + end}`);
      if (end >= 0 && text[i + end] !== ',' && text.slice(i + end, i + end + 2) !== '\r\n')
        throw new Error(`a bare line break at ${i + end}`);
      field = raw === '' ? null : raw;
      i += raw.length;
    }
    row.push(field);
    if (text[i] === ',') i += 1;
    else if (text.slice(i, i + 2) === '\r\n') {
      rows.push(row);
      row = [];
      i += 2;
      if (i === text.length) return rows;
    } else throw new Error(`the file must end with CRLF (at ${i}: ${JSON.stringify(text.slice(i, i + 10))})`);
  }
};

/** Every field of the record, the spec's and ours, in its order. */
const COLUMNS = [
  'callID',
  'providerCallID',
  'providerID',
  'providerName',
  'isOutbound',
  'isMissedCall',
  'remoteNumber',
  'remoteName',
  'startedAt',
  'answeredAt',
  'endedAt',
  'chosenContactID',
  'subscriberID',
  'subscriberFirstName',
  'subscriberLastName',
  'subscriberEmail',
  'subscriberExtension',
  'subscriberNumber',
  'subscriberAnsweredAt',
  'endedBy',
  'calledNumber',
  'queueID',
  'queueName',
];

const BOOLEAN_COLUMNS = new Set(['isOutbound', 'isMissedCall']);

/** A CSV row as the record it stands for: empty is absent, true/false are booleans where the record has them. */
const toRecord = (header: (string | null)[], row: (string | null)[]): Record<string, unknown> => {
  const record: Record<string, unknown> = {};
  header.forEach((name, i) => {
    const value = row[i];
    if (name === null) throw new Error('an empty column name');
    if (value === null || value === undefined) return;
    record[name] = BOOLEAN_COLUMNS.has(name) ? value === 'true' : value;
  });
  return record;
};

describe('GET call export', () => {
  it('writes CSV that parses back to exactly the records the list gives for the calls that started in the range, oldest first', async () => {
    await start();
    const res = await get(exportURL(`fromDate=${FROM}&toDate=${TO}`));
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8; header=present');
    expect(res.headers['content-disposition']).toBe('attachment; filename="calls_pbx_20261122T080000Z_20261122T090000Z.csv"');
    expect(res.headers[RETENTION_CUT_HEADER]).toBeUndefined();
    const [header, ...rows] = parseCsv(res.body);
    const list = await listRecords();
    expect(header).toEqual(COLUMNS);
    expect(COLUMNS).toEqual(Object.keys(callRecordSchema.shape));
    expect(rows.map((row) => toRecord(header!, row))).toEqual(list);
    expect(list.map((record) => record.callID)).toEqual(IN_RANGE);
    // The awkward ones, as written.
    expect(res.body).toContain('"Smith, John"');
    expect(res.body).toContain('"The ""Boss"""');
    expect(res.body).toContain('"line one\r\nline two\nthree\rfour"');
    expect(res.body).toContain(',Zoë 東京 😀,');
    expect(res.body).toContain(',"=HYPERLINK(""http://x"")",');
  });

  it('writes NDJSON: one line per call, each exactly the list record', async () => {
    await start();
    const res = await get(exportURL(`fromDate=${FROM}&toDate=${TO}&format=ndjson`));
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/x-ndjson');
    expect(res.headers['content-disposition']).toContain('filename="calls_pbx_20261122T080000Z_20261122T090000Z.ndjson"');
    expect(res.body.endsWith('\n')).toBe(true);
    const lines = res.body.slice(0, -1).split('\n');
    expect(lines.map((line) => JSON.parse(line) as unknown)).toEqual(await listRecords());
  });

  it('keeps to the queues asked for', async () => {
    await start();
    const ids = async (queueID: string) => {
      const res = await get(exportURL(`fromDate=${FROM}&toDate=${TO}&format=ndjson&queueID=${queueID}`));
      expect(res.statusCode).toBe(200);
      return res.body
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((line) => (JSON.parse(line) as CallRecord).callID);
    };
    expect(await ids('support')).toEqual(['b-tie']);
    expect(await ids('support,sales')).toEqual(['a-tie', 'b-tie']);
    expect(await ids('none')).toEqual(['multi', 'unicode', 'formula', 'empty-name', 'full']);
    const unknown = await get(exportURL(`fromDate=${FROM}&toDate=${TO}&queueID=billing`));
    expect(unknown.statusCode).toBe(404);
    expect(problemSchema.parse(unknown.json()).errors).toEqual([{ field: 'queueID', message: 'no queue "billing"' }]);
  });

  it('says so when the range begins before the retention: a header, and a first comment line in CSV only', async () => {
    await start(withQueues({ history: { retentionDays: 30 } } as Partial<ServiceConfigInput>));
    const cut = new Date(T0 - 30 * DAY).toISOString();
    const early = `fromDate=2026-10-01&toDate=${TO}`;
    const csv = await get(exportURL(early));
    expect(csv.statusCode).toBe(200);
    expect(csv.headers[RETENTION_CUT_HEADER]).toBe(cut);
    const [first, second] = csv.body.split('\r\n');
    expect(first).toBe(
      `# The journal keeps calls for 30 days: calls that started before ${cut} are no longer held and may be missing from this file.`,
    );
    expect(second?.startsWith('callID,providerCallID,')).toBe(true);
    expect(
      parseCsv(csv.body.slice(first!.length + 2))
        .slice(1)
        .map((row) => row[0]),
    ).toEqual(['edge-before', ...IN_RANGE]);

    const ndjson = await get(exportURL(`${early}&format=ndjson`));
    expect(ndjson.headers[RETENTION_CUT_HEADER]).toBe(cut);
    expect((JSON.parse(ndjson.body.split('\n')[0]!) as CallRecord).callID).toBe('edge-before');

    const within = await get(exportURL(`fromDate=${new Date(T0 - 29 * DAY).toISOString()}&toDate=${TO}`));
    expect(within.headers[RETENTION_CUT_HEADER]).toBeUndefined();
    expect(within.statusCode, within.body).toBe(200);
    expect(within.body.startsWith('callID,')).toBe(true);
  });

  it.each([
    ['toDate=2026-11-22', 'fromDate', /ISO 8601/],
    ['fromDate=2026-11-22', 'toDate', /ISO 8601/],
    ['fromDate=2026-11-22&toDate=2026-11-22', 'fromDate', /must be before toDate/],
    ['fromDate=2026-11-23&toDate=2026-11-22', 'fromDate', /must be before toDate/],
    ['fromDate=2000-01-01&toDate=2026-11-22', 'fromDate', /at most 3650 days/],
    ['fromDate=2026-11-21&toDate=soon', 'toDate', /ISO 8601/],
    ['fromDate=2026-11-21&toDate=2026-11-22&format=xlsx', 'format', /csv.*ndjson/],
    ['fromDate=2026-11-21&toDate=2026-11-22&limit=5', 'limit', /not a known query parameter/],
  ])('refuses %s with a 400 naming %s', async (query, field, message) => {
    await start();
    for (const method of ['GET', 'HEAD'] as const) {
      const res = await get(exportURL(query), method);
      expect(res.statusCode).toBe(400);
      if (method === 'HEAD') continue;
      const problem = problemSchema.parse(res.json());
      expect(problem.code).toBe('invalid_request');
      expect(problem.errors?.[0]?.field).toBe(field);
      expect(problem.errors?.[0]?.message).toMatch(message);
    }
  });

  it('is scoped like every read: no provider of another tenant, no token without calls:read', async () => {
    await start();
    const other = await t!.as(tokens.globex, { method: 'GET', url: exportURL(`fromDate=${FROM}&toDate=${TO}`) });
    expect(other.statusCode).toBe(404);
    const writeOnly = await t!.as(tokens.acmeSalesWrite, {
      method: 'GET',
      url: `${paths.callExport({ ...acmePbx, applicationID: 'sales' })}?fromDate=${FROM}&toDate=${TO}`,
    });
    expect(writeOnly.statusCode).toBe(403);
  });

  it('answers HEAD with the count and the headers, without writing the file', async () => {
    await start();
    const head = await get(exportURL(`fromDate=${FROM}&toDate=${TO}&queueID=support,none`), 'HEAD');
    expect(head.statusCode).toBe(200);
    expect(head.headers[EXPORT_COUNT_HEADER]).toBe('6');
    expect(head.headers['content-disposition']).toContain('calls_pbx_20261122T080000Z_20261122T090000Z.csv');
    expect(head.body).toBe('');
  });
});

const isPostgres = () => t!.store.location.kind === 'postgres';

/** Sessions of export connections open on the test's PostgreSQL database. */
const exportSessions = async (): Promise<number> => {
  const location = t!.store.location;
  if (location.kind !== 'postgres') return 0;
  const client = new pg.Client({ connectionString: location.url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>('SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = $1', [
      EXPORT_APPLICATION_NAME,
    ]);
    return Number(rows[0]?.n ?? 0);
  } finally {
    await client.end();
  }
};

const until = async (check: () => Promise<boolean> | boolean, ms = 5000) => {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

describe('an export whose client goes away', () => {
  it(
    'stops reading and frees its connection; past the cap of exports at once, the next is a 503',
    { timeout: 30_000 },
    async () => {
      await start();
      // About 25 MB of file: far more than the socket buffers between the two ends hold.
      const PADDING = 'x'.repeat(1000);
      const many = Array.from({ length: 20_000 }, (_, i) =>
        call(`bulk-${String(i).padStart(6, '0')}`, from + i * 100, { remoteName: `Caller ${i} ${PADDING}` }),
      );
      await t!.store.importCalls(acmePbx, many);
      const address = await t!.app.listen({ host: '127.0.0.1', port: 0 });
      const { port } = new URL(address) as unknown as AddressInfo;
      const open = () =>
        new Promise<IncomingMessage>((resolve, reject) => {
          const req = httpRequest(
            {
              host: '127.0.0.1',
              port,
              path: exportURL(`fromDate=${FROM}&toDate=2026-11-23`),
              headers: { authorization: `Bearer ${tokens.acmeAll}` },
            },
            resolve,
          );
          req.on('error', reject);
          req.end();
        });
      const response = await open();
      expect(response.statusCode).toBe(200);
      // The client reads one chunk and stops reading: the export waits for the socket, it does not run ahead.
      await new Promise((resolve) => response.once('data', resolve));
      response.pause();
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(t!.store.exports.liveThreads).toBe(1);
      if (isPostgres()) expect(await exportSessions()).toBe(1);

      // Past the service's exports at once, the next is told to come back.
      const second = await open();
      const third = await get(exportURL(`fromDate=${FROM}&toDate=${TO}`));
      expect(third.statusCode).toBe(503);
      expect(problemSchema.parse(third.json()).code).toBe('service_busy');
      expect(third.headers['retry-after']).toBe('1');
      second.destroy();

      response.destroy();
      await until(() => t!.store.exports.liveThreads === 0);
      expect(t!.store.exports.active).toBe(0);
      if (isPostgres()) await until(async () => (await exportSessions()) === 0);
      // The token's heavy-query slot came back: another export runs.
      const again = await get(exportURL(`fromDate=${FROM}&toDate=${TO}`), 'HEAD');
      expect(again.headers[EXPORT_COUNT_HEADER]).toBe(String(IN_RANGE.length + 20_000));
    },
  );
});
