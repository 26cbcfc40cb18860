/** CSV as RFC 4180 has it: CRLF after every record, a field quoted when it holds a comma, a quote or a line break, quotes doubled. */

export type CsvValue = string | number | null | undefined;

const field = (value: CsvValue): string => {
  const text = value === null || value === undefined ? '' : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

/** A header record of the columns' names, then one record per row, each field read by its column. */
export const toCsv = <Row>(
  columns: readonly (keyof Row & string)[],
  rows: readonly Row[],
  read: (row: Row, column: keyof Row & string) => CsvValue,
): string =>
  [columns, ...rows.map((row) => columns.map((column) => read(row, column)))]
    .map((record) => `${record.map(field).join(',')}\r\n`)
    .join('');
