/**
 * An export's rows from a connection of its own, through the driver's cursor, a bounded batch at a
 * time: better-sqlite3's statement iterator, or a PostgreSQL portal read with pg-cursor. Leaving
 * the loop early (a client that went away) closes the cursor and the connection.
 */
import SQLite from 'better-sqlite3';
import pg from 'pg';
import Cursor from 'pg-cursor';
import type { CallRow } from './call-rows.js';
import type { ExportStatement } from './call-export.js';
import { EXPORT_BATCH_ROWS } from './call-export-format.js';
import type { HistoryLocation } from './open-history-database.js';

/** The export's own connection: read-only on SQLite, one client on PostgreSQL; never one of the service's pools. */
export interface ExportConnection {
  batches(query: ExportStatement): AsyncGenerator<CallRow[]>;
  close(): Promise<void>;
}

/** Names this connection among the server's sessions (pg_stat_activity), for whoever looks at a busy database. */
export const EXPORT_APPLICATION_NAME = 'callboard-export';

const embeddedConnection = (file: string): ExportConnection => {
  const database = new SQLite(file, { readonly: true, fileMustExist: true });
  database.pragma('busy_timeout = 5000');
  return {
    async *batches({ sql, parameters }) {
      const rows = database.prepare(sql).iterate(...(parameters as unknown[])) as IterableIterator<CallRow>;
      try {
        for (;;) {
          const batch: CallRow[] = [];
          for (let next = rows.next(); !next.done; next = rows.next()) {
            batch.push(next.value);
            if (batch.length >= EXPORT_BATCH_ROWS) break;
          }
          if (batch.length === 0) return;
          yield batch;
        }
      } finally {
        rows.return?.();
      }
    },
    close: async () => void database.close(),
  };
};

const postgresConnection = async (url: string, schema: string | undefined): Promise<ExportConnection> => {
  const client = new pg.Client({
    connectionString: url,
    application_name: EXPORT_APPLICATION_NAME,
    ...(schema === undefined ? {} : { options: `-c search_path=${schema}` }),
  });
  // An error of the connection (the server went away) fails the read under way, not the thread.
  client.on('error', () => undefined);
  await client.connect();
  return {
    async *batches({ sql, parameters }) {
      const cursor = client.query(new Cursor<CallRow>(sql, parameters));
      try {
        for (;;) {
          const batch = await cursor.read(EXPORT_BATCH_ROWS);
          if (batch.length === 0) return;
          yield batch;
        }
      } finally {
        await cursor.close();
      }
    },
    close: () => client.end(),
  };
};

export const openExportConnection = (location: HistoryLocation): Promise<ExportConnection> =>
  location.kind === 'embedded'
    ? Promise.resolve(embeddedConnection(location.file))
    : postgresConnection(location.url, location.schema);
