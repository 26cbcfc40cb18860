import { readdirSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ProviderScope } from '../../contract/paths.js';
import { toCallRecord } from '../calls/call-snapshot.js';
import { asciiJSON } from '../calls/ascii-json.js';
import { providerCall } from '../test-support/provider-call.js';
import { createTestHistory, type TestHistory } from '../test-support/test-history.js';
import { loweredNice, WORKER_NICE } from '../worker-thread.js';
import { HeavyReadPool } from './heavy-read-pool.js';
import type { HistoryStore } from './history-store.js';
import type { WindowListRequest } from './heavy-reads.js';

const scope: ProviderScope = { accountID: 'acme', applicationID: 'support', providerID: 'pbx' };
const T = Date.parse('2026-11-22T09:00:00.000Z');
const DAY = 86_400_000;
const week: WindowListRequest = { scope, provider: { id: 'pbx', name: 'Acme PBX' }, from: T - 7 * DAY, to: T, limit: 10_000 };

/** A busy week: `count` calls of a few minutes each, spread evenly over the seven days. */
const busyWeek = (count: number) =>
  Array.from({ length: count }, (_, i) => {
    const startedAt = T - 7 * DAY + Math.floor((i * 7 * DAY) / count);
    return providerCall(`c${String(i).padStart(6, '0')}`, startedAt, {
      endedAt: startedAt + 180_000,
      subscriberID: `s${i % 40}`,
      // Names outside ASCII take more bytes than characters.
      remoteName: i % 3 === 0 ? 'Zoë Ångström 王' : 'Ada Lovelace',
    });
  });

let history: TestHistory;
let store: HistoryStore;
let pool: HeavyReadPool | undefined;
beforeEach(async () => {
  history = await createTestHistory();
  store = await history.open();
});
afterEach(async () => {
  await pool?.close();
  pool = undefined;
  await store.close();
  await history.dispose();
});

const openPool = (threads?: number) => (pool = new HeavyReadPool(history.location, threads));

describe('HeavyReadPool', () => {
  it('answers a window list as the journal holds it, serialized, from a reader thread', async () => {
    // About half a megabyte: written in more than one chunk.
    await store.importCalls(scope, busyWeek(1_000));
    const answer = await openPool().read('windowList', [week], 'acme');
    expect(answer.kind).toBe('list');
    if (answer.kind !== 'list') return;
    expect(Buffer.isBuffer(answer.body)).toBe(true);
    const journaled = await store.callsLiveDuring(scope, week.from, week.to, 10_000);
    const calls = journaled.map((call) => toCallRecord(call, 'pbx', 'Acme PBX'));
    expect(calls).toHaveLength(1_000);
    const expected = { calls, fromDate: new Date(week.from).toISOString(), toDate: new Date(week.to).toISOString(), totalCalls: 1_000 };
    // The same value, and the same bytes as the live list writes it: its names escaped to ASCII.
    expect(answer.body.toString('utf8')).toBe(asciiJSON(expected));
    expect(JSON.parse(answer.body.toString('utf8'))).toEqual(expected);
    expect(answer.count).toBe(1_000);
    expect(answer.etag).toMatch(/^"/);
    expect(await pool?.read('windowList', [{ ...week, limit: 999 }], 'acme')).toEqual({ kind: 'too-many' });
    // A body of a few bytes shares its memory with other small buffers in the reader: it comes over as a copy.
    const empty = await pool?.read('windowList', [{ ...week, from: T + DAY, to: T + 2 * DAY }], 'acme');
    expect(empty?.kind === 'list' && JSON.parse(empty.body.toString('utf8'))).toMatchObject({ calls: [], totalCalls: 0 });
  });

  it('keeps the event loop free while a heavy read runs', async () => {
    // Read on the event loop, a week of 9,000 calls blocks it for a few hundred milliseconds: a
    // timer due at once would fire only after the read.
    await store.importCalls(scope, busyWeek(9_000));
    const reader = openPool();
    const events: string[] = [];
    const read = reader.read('windowList', [week], 'acme').then(() => events.push('read'));
    await new Promise((resolve) => setTimeout(resolve, 0)).then(() => events.push('timer'));
    await read;
    expect(events).toEqual(['timer', 'read']);
  });

  it("takes lanes in turn: one lane's burst delays another lane's read by one of its reads, not by the whole burst", async () => {
    await store.importCalls(scope, busyWeek(2_000));
    const reader = openPool(1);
    const done: string[] = [];
    const reads = [
      ...Array.from({ length: 6 }, (_, i) => reader.read('windowList', [week], 'acme').then(() => done.push(`acme-${i}`))),
      reader.read('subscriberActivity', [scope, week.from, week.to, T], 'globex').then(() => done.push('globex')),
    ];
    await Promise.all(reads);
    // acme-0 was under way and acme-1 queued before globex asked; then the lanes alternate.
    expect(done).toEqual(['acme-0', 'acme-1', 'globex', 'acme-2', 'acme-3', 'acme-4', 'acme-5']);
  });

  // A process already at the lowest priority has none lower to give its readers.
  it.runIf(process.platform === 'linux' && getPriority() < 19)('reads below the event loop\'s priority', async () => {
    const niceOfThreads = () =>
      readdirSync('/proc/self/task').map((tid) => Number(readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1]?.split(' ')[16]));
    // Below the process's own priority, whatever it was started with (`nice npm test` included).
    const processNice = getPriority();
    const readerNice = loweredNice(processNice, WORKER_NICE.heavyReads);
    expect(niceOfThreads()).not.toContain(readerNice);
    await openPool().read('concurrency', [scope, { from: T - DAY, to: T, bucketMs: 3_600_000, now: T }], 'acme');
    expect(niceOfThreads()).toContain(readerNice);
    // The event loop's own thread keeps the process's priority.
    expect(niceOfThreads()[0]).toBe(processNice);
  });

  it('fails the reads still waiting when it closes, and refuses new ones', async () => {
    await store.importCalls(scope, busyWeek(2_000));
    const reader = openPool(1);
    const reads = Array.from({ length: 3 }, () => reader.read('windowList', [week], 'acme'));
    const settled = Promise.allSettled(reads);
    await reader.close();
    const outcomes = await settled;
    expect(outcomes.filter((o) => o.status === 'rejected').length).toBeGreaterThanOrEqual(2);
    await expect(reader.read('windowList', [week], 'acme')).rejects.toThrow(/closed/);
  });
});
