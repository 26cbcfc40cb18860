/**
 * How an export's records are written, as CSV (RFC 4180) or NDJSON, into chunks of bytes whatever
 * the store's cursor hands over. Loaded by the export thread: it needs no query builder or schema.
 */
import type { CallRecord } from '../../contract/call-record.js';
import { quoteCsv } from '../../contract/csv.js';
import { asciiJSON } from '../calls/ascii-json.js';
import { toCallRecord, type ProviderIdentity } from '../calls/call-snapshot.js';
import { CALL_FIELD_NAMES } from '../providers/call-fields.js';
import { fromCallRow, type CallRow } from './call-rows.js';

export type ExportFormat = 'csv' | 'ndjson';

/** What the file holds besides its calls: how it is written, and what it says of the retention. */
export interface ExportFile {
  provider: ProviderIdentity;
  format: ExportFormat;
  /** The first moment the journal still holds, when the range begins before it. */
  retentionCut?: number;
  retentionDays: number;
}

/** Rows read from the cursor at a time: a bounded batch, whatever the range holds. */
export const EXPORT_BATCH_ROWS = 1000;
/**
 * The text of this many characters or so goes out as one chunk. Chunks travel as strings, small
 * enough to be young objects of the main thread's heap: they die at its next scavenge, and the
 * bytes the socket writes are freed as soon as they are written. Buffers would instead wait, as
 * memory outside the heap, for a full collection that comes only after some 64 MB of them.
 */
const CHUNK_CHARS = 32 * 1024;

/** Every field of the call record, in the order `toCallRecord` writes them: the CSV's columns. */
export const EXPORT_COLUMNS = [
  'callID',
  'providerCallID',
  'providerID',
  'providerName',
  ...CALL_FIELD_NAMES.filter((name) => name !== 'providerCallID'),
] as (keyof CallRecord)[];

/**
 * One CSV field (RFC 4180): quoted, its quotes doubled, when it holds a quote, a comma, CR or LF.
 * An absent field is empty and an empty text is `""`, so a reader can tell the two apart.
 */
const csvField = (value: string | boolean | undefined): string => {
  if (value === undefined) return '';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (value === '') return '""';
  return quoteCsv(value);
};

const csvLine = (record: CallRecord): string => {
  const fields = record as unknown as Record<string, string | boolean | undefined>;
  let line = '';
  for (let i = 0; i < EXPORT_COLUMNS.length; i += 1) line += (i === 0 ? '' : ',') + csvField(fields[EXPORT_COLUMNS[i] as string]);
  return `${line}\r\n`;
};

const iso = (ms: number) => new Date(ms).toISOString();

/** What a range past the retention is told, in CSV's first line. */
const retentionComment = (cut: number, retentionDays: number): string =>
  `# The journal keeps calls for ${retentionDays} days: calls that started before ${iso(cut)} are no longer held and may be missing from this file.`;

/** What comes before the first call: in CSV, the retention's comment line (when it applies) and the header row. */
const preamble = ({ format, retentionCut, retentionDays }: ExportFile): string => {
  if (format === 'ndjson') return '';
  const comment = retentionCut === undefined ? '' : `${retentionComment(retentionCut, retentionDays)}\r\n`;
  return `${comment}${EXPORT_COLUMNS.join(',')}\r\n`;
};

/** Writes one row as the format's line. */
const lineWriter = ({ format, provider }: ExportFile): ((row: CallRow) => string) => {
  if (format === 'ndjson') return (row) => `${asciiJSON(toCallRecord(fromCallRow(row), provider.id, provider.name))}\n`;
  return (row) => csvLine(toCallRecord(fromCallRow(row), provider.id, provider.name));
};

/**
 * The file's text, a chunk of about CHUNK_CHARS at a time, from batches of rows: only the batch in
 * hand and the chunk being filled are in memory, however many calls the range holds.
 */
export async function* exportChunks(batches: AsyncIterable<readonly CallRow[]>, file: ExportFile): AsyncGenerator<string> {
  const line = lineWriter(file);
  let text = preamble(file);
  for await (const rows of batches) {
    for (const row of rows) {
      text += line(row);
      if (text.length >= CHUNK_CHARS) {
        yield text;
        text = '';
      }
    }
  }
  if (text.length > 0) yield text;
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
