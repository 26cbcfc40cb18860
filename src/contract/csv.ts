/** CSV cells as RFC 4180 has them, for every file the service and the dashboard write. */

/** A field quoted when it holds a quote, a comma, CR or LF, its quotes doubled; otherwise as it is. */
export const quoteCsv = (text: string): string => (/[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text);

/**
 * A text cell for a file people open in a spreadsheet: quoted as RFC 4180 requires, and text a
 * spreadsheet would run as a formula (a caller's remote name like "=HYPERLINK(...)" comes from
 * outside) defused with a leading apostrophe.
 */
export const csvCell = (value: string): string => quoteCsv(/^[=+\-@\t\r]/.test(value) ? `'${value}` : value);

/** Rows of text cells as CSV text, one CRLF-ended line each. */
export const csvText = (rows: readonly (readonly string[])[]): string => rows.map((cells) => cells.map(csvCell).join(',')).join('\r\n') + '\r\n';
