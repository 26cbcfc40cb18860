/**
 * A fresh history store per test: an embedded file in a temporary directory, or, when
 * DATABASE_URL is set, a schema of its own in that PostgreSQL database. Same suite, both stores.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterEach, beforeEach } from 'vitest';
import { HistoryStore } from '../history/history-store.js';
import type { HistoryLocation } from '../history/open-history-database.js';

export interface TestHistory {
  location: HistoryLocation;
  open(): Promise<HistoryStore>;
  /** Drops the temporary file or schema; close every store opened first. */
  dispose(): Promise<void>;
}

const DATABASE_URL = process.env.DATABASE_URL;

export const historyKind = DATABASE_URL ? 'postgres' : 'embedded';

const withClient = async (url: string, run: (client: pg.Client) => Promise<unknown>) => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await run(client);
  } finally {
    await client.end();
  }
};

/**
 * Opening a store migrates its schema, and the migrator looks for its table among every schema's
 * tables: a schema another test drops meanwhile fails that look ("schema … does not exist"). Files
 * run in parallel, so opens share a lock that a drop takes alone.
 */
const SCHEMA_DROP_LOCK = 7_262_001;

const whileNoSchemaIsDropped = async <T>(url: string, run: () => Promise<T>): Promise<T> => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock_shared($1)', [SCHEMA_DROP_LOCK]);
    return await run();
  } finally {
    await client.end();
  }
};

const dropSchema = (url: string, schema: string) =>
  withClient(url, async (client) => {
    await client.query('SELECT pg_advisory_lock($1)', [SCHEMA_DROP_LOCK]);
    await client.query(`DROP SCHEMA ${schema} CASCADE`);
  });

export const createTestHistory = async (): Promise<TestHistory> => {
  if (DATABASE_URL) {
    const schema = `test_${randomBytes(6).toString('hex')}`;
    await withClient(DATABASE_URL, (client) => client.query(`CREATE SCHEMA ${schema}`));
    const location: HistoryLocation = { kind: 'postgres', url: DATABASE_URL, schema };
    return {
      location,
      open: () => whileNoSchemaIsDropped(DATABASE_URL, () => HistoryStore.open(location)),
      dispose: () => dropSchema(DATABASE_URL, schema),
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'callboard-history-'));
  const location: HistoryLocation = { kind: 'embedded', file: join(dir, 'history.db') };
  return {
    location,
    open: () => HistoryStore.open(location),
    dispose: async () => rmSync(dir, { recursive: true, force: true }),
  };
};

/** A fresh store for each test of the calling file, closed and disposed of after it. */
export const useHistoryStore = (): (() => HistoryStore) => {
  let history: TestHistory | undefined;
  let store: HistoryStore | undefined;
  beforeEach(async () => {
    history = await createTestHistory();
    store = await history.open();
  });
  afterEach(async () => {
    await store?.close();
    await history?.dispose();
  });
  return () => {
    if (!store) throw new Error('useHistoryStore: the store is opened in beforeEach');
    return store;
  };
};
