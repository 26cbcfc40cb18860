/**
 * The whole history of a range out as a file: which calls (those that started in [from, to),
 * oldest first, ties by call ID), and how their records are written, as CSV (RFC 4180) or NDJSON,
 * into chunks of bytes whatever the store's cursor hands over.
 */
import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type CompiledQuery,
  type RawBuilder,
  type SqlBool,
} from 'kysely';
import { callRecordSchema, type CallRecord } from '../../contract/call-record.js';
import type { ProviderScope } from '../../contract/paths.js';
import type { ProviderIdentity } from '../calls/call-snapshot.js';
import { toCallRecord } from '../calls/call-snapshot.js';
import { asciiJSON } from '../calls/ascii-json.js';
import type { QueueSelection } from '../queues/queue-selection.js';
import { fromCallRow, type CallRow } from './call-rows.js';
import type { HistoryDb, HistoryTables } from './history-tables.js';
import type { HistoryDialect } from './open-history-database.js';
import { queueCondition } from './queue-condition.js';

export type ExportFormat = 'csv' | 'ndjson';

export interface CallExportRequest {
  scope: ProviderScope;
  provider: ProviderIdentity;
  from: number;
  to: number;
  queues?: QueueSelection;
  format: ExportFormat;
  /** The first moment the journal still holds, when the range begins before it. */
  retentionCut?: number;
  retentionDays: number;
}

/** Rows read from the cursor at a time: a bounded batch, whatever the range holds. */
export const EXPORT_BATCH_ROWS = 1000;
/** The text of this many bytes or so goes out as one chunk. */
const CHUNK_BYTES = 128 * 1024;

const rangeQuery = (db: HistoryDb, { scope, from, to, queues }: Pick<CallExportRequest, 'scope' | 'from' | 'to' | 'queues'>) =>
  db
    .selectFrom('calls')
    .where('account_id', '=', scope.accountID)
    .where('application_id', '=', scope.applicationID)
    .where('provider_id', '=', scope.providerID)
    .where('started_at', '>=', from)
    .where('started_at', '<', to)
    .$if(queues !== undefined, (query) => query.where(queueCondition(queues as QueueSelection, 'calls') as RawBuilder<SqlBool>));

/** The range's calls, oldest first, ties by call ID. */
export const exportQuery = (db: HistoryDb, request: CallExportRequest) => rangeQuery(db, request).selectAll().orderBy('started_at').orderBy('call_id');

/** How many calls the range holds. */
export const exportCountQuery = (db: HistoryDb, request: Pick<CallExportRequest, 'scope' | 'from' | 'to' | 'queues'>) =>
  rangeQuery(db, request).select((eb) => eb.fn.countAll<number | string>().as('count'));

/** A Kysely that only compiles: the export runs its SQL on a connection of its own, through the driver's cursor. */
const compilers: Record<HistoryDialect, HistoryDb> = {
  embedded: new Kysely<HistoryTables>({
    dialect: {
      createAdapter: () => new SqliteAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => new SqliteIntrospector(db),
      createQueryCompiler: () => new SqliteQueryCompiler(),
    },
  }),
  postgres: new Kysely<HistoryTables>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => new PostgresIntrospector(db),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
  }),
};

export const compileExport = (dialect: HistoryDialect, request: CallExportRequest): CompiledQuery => exportQuery(compilers[dialect], request).compile();

export const compileExportCount = (dialect: HistoryDialect, request: CallExportRequest): CompiledQuery =>
  exportCountQuery(compilers[dialect], request).compile();

/** Every field of the call record, in its order: the CSV's columns. */
export const EXPORT_COLUMNS = Object.keys(callRecordSchema.shape) as (keyof CallRecord)[];

const NEEDS_QUOTES = /[",\r\n]/;

/**
 * One CSV field (RFC 4180): quoted, its quotes doubled, when it holds a quote, a comma, CR or LF.
 * An absent field is empty and an empty text is `""`, so a reader can tell the two apart.
 */
export const csvField = (value: string | boolean | undefined): string => {
  if (value === undefined) return '';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (value === '') return '""';
  return NEEDS_QUOTES.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
};

const csvLine = (record: CallRecord): string => {
  const fields = record as unknown as Record<string, string | boolean | undefined>;
  let line = '';
  for (let i = 0; i < EXPORT_COLUMNS.length; i += 1) line += (i === 0 ? '' : ',') + csvField(fields[EXPORT_COLUMNS[i] as string]);
  return `${line}\r\n`;
};

const iso = (ms: number) => new Date(ms).toISOString();

/** What a range past the retention is told, in CSV's first line. */
export const retentionComment = (cut: number, retentionDays: number): string =>
  `# The journal keeps calls for ${retentionDays} days: calls that started before ${iso(cut)} are no longer held and may be missing from this file.`;

/** What comes before the first call: in CSV, the retention's comment line (when it applies) and the header row. */
const preamble = ({ format, retentionCut, retentionDays }: CallExportRequest): string => {
  if (format === 'ndjson') return '';
  const comment = retentionCut === undefined ? '' : `${retentionComment(retentionCut, retentionDays)}\r\n`;
  return `${comment}${EXPORT_COLUMNS.join(',')}\r\n`;
};

/** Writes one row as the format's line. */
const lineWriter = ({ format, provider }: CallExportRequest): ((row: CallRow) => string) => {
  if (format === 'ndjson') return (row) => `${asciiJSON(toCallRecord(fromCallRow(row), provider.id, provider.name))}\n`;
  return (row) => csvLine(toCallRecord(fromCallRow(row), provider.id, provider.name));
};

/**
 * The file's bytes, a chunk of about CHUNK_BYTES at a time, from batches of rows: only the batch
 * in hand and the chunk being filled are in memory, however many calls the range holds.
 */
export async function* exportChunks(batches: AsyncIterable<readonly CallRow[]>, request: CallExportRequest): AsyncGenerator<Buffer> {
  const line = lineWriter(request);
  let text = preamble(request);
  for await (const rows of batches) {
    for (const row of rows) {
      text += line(row);
      if (text.length >= CHUNK_BYTES) {
        yield Buffer.from(text, 'utf8');
        text = '';
      }
    }
  }
  if (text.length > 0) yield Buffer.from(text, 'utf8');
}

/** Rows of a Kysely stream, gathered into batches. */
export async function* batchesOf(rows: AsyncIterable<CallRow>, size = EXPORT_BATCH_ROWS): AsyncGenerator<CallRow[]> {
  let batch: CallRow[] = [];
  for await (const row of rows) {
    batch.push(row);
    if (batch.length >= size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}
