/** CSV files from the dashboard: their names and the download itself (the cells: `contract/csv.ts`). */

/** "callboard-calls-2026-11-22T14-03-27Z.csv": UTC, so the name sorts and means the same in every zone. */
export const csvFileName = (what: string, now: number): string =>
  `callboard-${what}-${new Date(now).toISOString().slice(0, 19).replaceAll(':', '-')}Z.csv`;

/** Saves `blob` as `fileName` through an object URL, the way a link with `download` does. */
export const downloadBlob = (blob: Blob, fileName: string): void => {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  // Revoked a moment later: some browsers read the blob only after click() has returned.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
};

// The byte-order mark makes Excel read the file as UTF-8, so names with accents survive.
export const downloadCsv = (text: string, fileName: string): void => downloadBlob(new Blob(['\uFEFF', text], { type: 'text/csv;charset=utf-8' }), fileName);
