/**
 * The whole history of a range out as a file: which calls, those that started in [from, to),
 * oldest first, ties by call ID, as the SQL an export thread runs on its own connection.
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
import type { ProviderScope } from '../../contract/paths.js';
import type { QueueSelection } from '../queues/queue-selection.js';
import type { ExportFile } from './call-export-format.js';
import { CALL_COLUMNS } from './call-rows.js';
import type { HistoryDb, HistoryTables } from './history-tables.js';
import type { HistoryDialect } from './open-history-database.js';
import { queueCondition } from './queue-condition.js';

export interface CallExportRequest extends ExportFile {
  scope: ProviderScope;
  from: number;
  to: number;
  queues?: QueueSelection;
}

/** A statement and its parameters, as the export thread's driver runs it. */
export interface ExportStatement {
  sql: string;
  parameters: readonly unknown[];
}

/** The columns a call's record is made from, and no more (the scope's are known). */
const RECORD_COLUMNS = ['call_id', ...CALL_COLUMNS] as 'call_id'[];

/** The calls an export holds: its provider's, started in [from, to), of its queues. */
export type ExportRange = Pick<CallExportRequest, 'scope' | 'from' | 'to' | 'queues'>;

const rangeQuery = (db: HistoryDb, { scope, from, to, queues }: ExportRange) =>
  db
    .selectFrom('calls')
    .where('account_id', '=', scope.accountID)
    .where('application_id', '=', scope.applicationID)
    .where('provider_id', '=', scope.providerID)
    .where('started_at', '>=', from)
    .where('started_at', '<', to)
    .$if(queues !== undefined, (query) => query.where(queueCondition(queues as QueueSelection, 'calls') as RawBuilder<SqlBool>));

/** The range's calls, oldest first, ties by call ID. */
export const exportQuery = (db: HistoryDb, request: CallExportRequest) =>
  rangeQuery(db, request).select(RECORD_COLUMNS).orderBy('started_at').orderBy('call_id');

/** How many calls the range holds (a heavy read, in the reader threads). */
export const exportCount = async (db: HistoryDb, range: ExportRange): Promise<number> =>
  Number((await rangeQuery(db, range).select((eb) => eb.fn.countAll<number | string>().as('count')).executeTakeFirstOrThrow()).count);

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

const statement = ({ sql, parameters }: CompiledQuery): ExportStatement => ({ sql, parameters });

export const compileExport = (dialect: HistoryDialect, request: CallExportRequest): ExportStatement =>
  statement(exportQuery(compilers[dialect], request).compile());

