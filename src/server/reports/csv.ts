/** The reports' CSV attachments (RFC 4180): CRLF after every record; text cells as the dashboard's files write them. */
import { csvCell } from '../../contract/csv.js';

export type CsvValue = string | number | null | undefined;

/** A number as written; a text as `csvCell` writes it (quoted where needed, a formula defused); nothing as an empty field. */
const field = (value: CsvValue): string => (value === null || value === undefined ? '' : typeof value === 'number' ? String(value) : csvCell(value));

/** A header record of the columns' names, then one record per row, each field read by its column. */
export const toCsv = <Row>(
  columns: readonly (keyof Row & string)[],
  rows: readonly Row[],
  read: (row: Row, column: keyof Row & string) => CsvValue,
): string =>
  [columns, ...rows.map((row) => columns.map((column) => read(row, column)))]
    .map((record) => `${record.map(field).join(',')}\r\n`)
    .join('');
