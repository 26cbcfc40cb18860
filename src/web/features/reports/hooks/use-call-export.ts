/**
 * The "Export all calls" flow: the count first (a query, asked once the reader opens the export),
 * then the download with its progress, which the reader can cancel. A file the count says is small
 * enough is gathered in memory and saved from an object URL; a larger one is written straight to a
 * file the reader picks where the browser can (the File System Access API), and otherwise is
 * downloaded after a warning that it is held in memory until saved.
 */
import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ProviderScope } from '../../../../contract/paths.js';
import { useApi } from '../../../lib/api/api-context.js';
import { downloadBlob } from '../../../lib/csv.js';
import type { ReportRequest } from '../api/report-queries.js';
import { BYTES_PER_CALL, exportCountQueryOptions, readExport, type ExportFormat } from '../api/call-export.js';

/** Above this estimate a file is not gathered in memory where the browser can write it to disk as it comes. */
export const IN_MEMORY_LIMIT_BYTES = 200 * 1024 * 1024;

export type ExportProgress =
  | { status: 'idle' }
  | { status: 'downloading'; bytes: number; toDisk: boolean }
  | { status: 'done'; bytes: number; fileName: string; retentionCut?: string }
  | { status: 'cancelled' }
  | { status: 'failed'; message: string };

interface SaveFilePicker {
  (options: { suggestedName: string; types?: { description: string; accept: Record<string, string[]> }[] }): Promise<{
    createWritable: () => Promise<{
      write: (chunk: Uint8Array) => Promise<void>;
      close: () => Promise<void>;
      abort: () => Promise<void>;
    }>;
  }>;
}

/** The browser's save dialog for streaming to disk, where it has one (Chromium-based browsers). */
const saveFilePicker = (): SaveFilePicker | undefined =>
  (window as unknown as { showSaveFilePicker?: SaveFilePicker }).showSaveFilePicker;

export const canWriteToDisk = (): boolean => saveFilePicker() !== undefined;

const MIME: Record<ExportFormat, string> = { csv: 'text/csv', ndjson: 'application/x-ndjson' };
/** How often a download under way tells its progress. */
const PROGRESS_EVERY_MS = 250;

export const estimatedBytes = (calls: number, format: ExportFormat): number => calls * BYTES_PER_CALL[format];

export const useExportCount = (scope: ProviderScope, request: ReportRequest, enabled: boolean) =>
  useQuery(exportCountQueryOptions(useApi(), scope, request, enabled));

export const useCallExport = (scope: ProviderScope, request: ReportRequest) => {
  const client = useApi();
  const [progress, setProgress] = useState<ExportProgress>({ status: 'idle' });
  const controller = useRef<AbortController | undefined>(undefined);
  useEffect(() => () => controller.current?.abort(), []);

  const start = useCallback(
    async (format: ExportFormat, fileName: string, estimate: number) => {
      controller.current?.abort();
      const abort = new AbortController();
      controller.current = abort;
      const picker = estimate > IN_MEMORY_LIMIT_BYTES ? saveFilePicker() : undefined;
      let file: Awaited<ReturnType<Awaited<ReturnType<SaveFilePicker>>['createWritable']>> | undefined;
      try {
        // The dialog first, while the click still counts as the reader's gesture.
        if (picker) file = await (await picker({ suggestedName: fileName })).createWritable();
        const chunks: Uint8Array[] = [];
        let bytes = 0;
        let toldAt = -Infinity;
        setProgress({ status: 'downloading', bytes: 0, toDisk: file !== undefined });
        const retentionCut = await readExport(
          client,
          scope,
          request,
          format,
          abort.signal,
          (chunk) => (file ? file.write(chunk) : void chunks.push(chunk)),
          (total) => {
            bytes = total;
            // A file of hundreds of MB arrives in thousands of chunks: the page (and its live region) is told a few times a second.
            const now = performance.now();
            if (now - toldAt < PROGRESS_EVERY_MS) return;
            toldAt = now;
            setProgress({ status: 'downloading', bytes, toDisk: file !== undefined });
          },
        );
        if (file) await file.close();
        else downloadBlob(new Blob(chunks as BlobPart[], { type: MIME[format] }), fileName);
        setProgress({ status: 'done', bytes, fileName, ...(retentionCut ? { retentionCut } : {}) });
      } catch (error) {
        await file?.abort().catch(() => undefined);
        if ((error as Error).name === 'AbortError') setProgress({ status: 'cancelled' });
        else setProgress({ status: 'failed', message: (error as Error).message });
      } finally {
        if (controller.current === abort) controller.current = undefined;
      }
    },
    [client, scope, request],
  );

  const cancel = useCallback(() => controller.current?.abort(), []);
  const reset = useCallback(() => setProgress({ status: 'idle' }), []);
  return { progress, start, cancel, reset };
};
