/**
 * Measures the call journal on the embedded store, and on PostgreSQL when DATABASE_URL is set:
 * write cost per sync at about 1,000 live calls, the 7-day concurrency query at the simulator's
 * default traffic, and the database size per 100,000 calls. Run: npx tsx bench/measure-history.ts
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { ManualClock } from '../src/server/clock.js';
import { HistoryStore } from '../src/server/history/history-store.js';
import { journalBatch } from '../src/server/calls/journal-batch.js';
import type { HistoryLocation } from '../src/server/history/open-history-database.js';
import type { ProviderCall } from '../src/server/providers/phone-system.js';
import { createPhoneSystemSimulator } from '../src/server/providers/simulator/phone-system-simulator.js';

const DAY = 86_400_000;
const NOW = Date.parse('2026-11-19T11:00:00Z'); // a Thursday late morning: the busy part of the curve
const scope = { accountID: 'demo', applicationID: 'support', providerID: 'pbx-main' };
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const round = (n: number) => Math.round(n * 100) / 100;

interface Target {
  name: string;
  location: HistoryLocation;
  sizeBytes: (store: HistoryStore) => Promise<number>;
  dispose: () => Promise<void>;
}

const embedded = (): Target => {
  const dir = mkdtempSync(join(tmpdir(), 'callboard-measure-'));
  const file = join(dir, 'callboard.db');
  return {
    name: 'embedded (SQLite)',
    location: { kind: 'embedded', file },
    // Closing checkpoints the WAL into the file, so the file alone is the size.
    sizeBytes: async () => statSync(file).size,
    dispose: async () => rmSync(dir, { recursive: true, force: true }),
  };
};

const postgres = async (url: string): Promise<Target> => {
  const schema = `measure_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  return {
    name: 'PostgreSQL',
    location: { kind: 'postgres', url, schema },
    sizeBytes: async () => {
      await admin.query(`VACUUM ANALYZE ${schema}.calls`);
      const { rows } = await admin.query(`SELECT pg_total_relation_size('${schema}.calls') AS bytes`);
      return Number(rows[0].bytes);
    },
    dispose: async () => {
      await admin.query(`DROP SCHEMA ${schema} CASCADE`);
      await admin.end();
    },
  };
};

/** A center sized for about 1,000 live calls, synced every second: the diff and its transaction. */
const measureWrites = async (store: HistoryStore) => {
  const clock = new ManualClock(NOW);
  const sim = createPhoneSystemSimulator({ clock, seed: 7, name: 'big', agents: 1800, traffic: 1 });
  const signal = new AbortController().signal;
  let written: ProviderCall[] | undefined;
  const times: number[] = [];
  let upserts = 0;
  let live = 0;
  let first = 0;
  for (let sync = 0; sync < 121; sync += 1) {
    const calls = await sim.listCalls(signal);
    const started = performance.now();
    const batch = journalBatch(written, calls, clock.now());
    await store.write(scope, batch);
    const ms = performance.now() - started;
    if (sync === 0) first = ms;
    else {
      times.push(ms);
      upserts += batch.upserts.length;
    }
    live = calls.filter((c) => c.endedAt === undefined).length;
    written = calls;
    clock.advance(1000);
  }
  return { live, firstSyncMs: round(first), steadySyncMs: round(median(times)), changesPerSync: round(upserts / times.length) };
};

/** Streams a simulated week into the store, at most `limit` calls of it; answers how many. */
const importWeek = async (store: HistoryStore, into: typeof scope, options: { seed: number; name: string; agents?: number }, limit = Infinity) => {
  const sim = createPhoneSystemSimulator({ clock: new ManualClock(NOW), ...options });
  let calls = 0;
  for await (const batch of sim.backfill({ since: NOW - 7 * DAY, from: NOW - 7 * DAY, to: NOW }, new AbortController().signal)) {
    const taken = batch.calls.slice(0, limit - calls);
    await store.importCalls(into, taken);
    calls += taken.length;
    if (calls >= limit) break;
  }
  return calls;
};

const measureAnalytics = async (store: HistoryStore) => {
  const calls = await importWeek(store, scope, { seed: 1, name: 'pbx-main' });
  const run = async (bucketMs: number) => {
    const times: number[] = [];
    for (let i = 0; i < 7; i += 1) {
      const started = performance.now();
      await store.concurrency(scope, { from: NOW - 7 * DAY, to: NOW, bucketMs, now: NOW });
      times.push(performance.now() - started);
    }
    return round(median(times));
  };
  return { calls, sevenDays30MinMs: await run(1_800_000), sevenDays1HourMs: await run(3_600_000) };
};

/** About 100,000 ended calls from a larger simulated center, then the store's size. */
const measureSize = async (target: Target) => {
  const store = await HistoryStore.open(target.location);
  const before = await target.sizeBytes(store);
  const calls = await importWeek(store, { ...scope, providerID: 'size' }, { seed: 3, name: 'size', agents: 140 }, 100_000);
  await store.close();
  const reopened = await HistoryStore.open(target.location);
  const after = await target.sizeBytes(reopened);
  await reopened.close();
  return { calls, mbPer100k: round(((after - before) / 1_048_576) * (100_000 / calls)) };
};

const measure = async (target: Target) => {
  const store = await HistoryStore.open(target.location);
  const writes = await measureWrites(store);
  const analytics = await measureAnalytics(store);
  await store.close();
  const size = await measureSize(target);
  await target.dispose();
  console.log(JSON.stringify({ store: target.name, writes, analytics, size }, null, 2));
};

await measure(embedded());
if (process.env.DATABASE_URL) await measure(await postgres(process.env.DATABASE_URL));
