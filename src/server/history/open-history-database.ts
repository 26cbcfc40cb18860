/**
 * Opens the history database: an embedded SQLite file (better-sqlite3, WAL) by default, or
 * PostgreSQL (pg pool) for deployments that run several service instances; migrated on open.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { HistoryDb, HistoryTables } from './history-tables.js';
import { migrateToLatest } from './migrations.js';

export type HistoryLocation =
  | { kind: 'embedded'; file: string }
  /** `schema` confines the service to one PostgreSQL schema (tests use a fresh one each). */
  | { kind: 'postgres'; url: string; schema?: string };

export type HistoryDialect = HistoryLocation['kind'];

const PG_INT8 = 20;

/** PostgreSQL's bigint arrives as a string by default; epoch milliseconds fit a JS number exactly. */
const pgTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === PG_INT8 ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

const openEmbedded = (file: string): HistoryDb => {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const database = new SQLite(file);
  // WAL keeps readers off the writer's back; NORMAL sync in WAL mode can lose the last
  // transaction on power loss but never corrupts the file.
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.pragma('busy_timeout = 5000');
  return new Kysely<HistoryTables>({ dialect: new SqliteDialect({ database }) });
};

const openPostgres = (url: string, schema: string | undefined, max = 4): HistoryDb => {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    types: pgTypes,
    ...(schema === undefined ? {} : { options: `-c search_path=${schema}` }),
  });
  // A connection the server closed (a restart of PostgreSQL, say) is dropped from the pool and
  // replaced on the next query; the query that meets the outage fails with its own error. An idle
  // connection's error reaches the pool, a checked-out one's its client: neither may end the process.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  return new Kysely<HistoryTables>({ dialect: new PostgresDialect({ pool }) });
};

export const openHistoryDatabase = async (location: HistoryLocation): Promise<HistoryDb> => {
  const db = location.kind === 'embedded' ? openEmbedded(location.file) : openPostgres(location.url, location.schema);
  try {
    await migrateToLatest(db, location.kind === 'postgres' ? location.schema : undefined);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return db;
};

/**
 * A connection that only reads, for a reader thread: the writer (the service's own connection)
 * created and migrated the schema. SQLite's write-ahead log lets it read while the writer writes.
 */
export const openHistoryReader = (location: HistoryLocation): HistoryDb => {
  if (location.kind === 'postgres') return openPostgres(location.url, location.schema, 1);
  const database = new SQLite(location.file, { readonly: true, fileMustExist: true });
  database.pragma('busy_timeout = 5000');
  return new Kysely<HistoryTables>({ dialect: new SqliteDialect({ database }) });
};
