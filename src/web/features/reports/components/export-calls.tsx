/**
 * "Export all calls" of the report's range and queues: the count and an estimated size first, then
 * the download (CSV or NDJSON) with its progress, which can be cancelled.
 */
import { useState } from 'react';
import { EXPORT_DEFINITIONS } from '../../../../contract/reports.js';
import type { ProviderScope } from '../../../../contract/paths.js';
import { Banner } from '../../../components/ui/banner.js';
import { Button } from '../../../components/ui/button.js';
import { Panel } from '../../../components/ui/panel.js';
import { formatDateTime } from '../../../lib/format.js';
import type { ReportRequest } from '../api/report-queries.js';
import { exportFileName, type ExportFormat } from '../api/call-export.js';
import {
  canWriteToDisk,
  estimatedBytes,
  IN_MEMORY_LIMIT_BYTES,
  useCallExport,
  useExportCount,
  type ExportProgress,
} from '../hooks/use-call-export.js';

/** "820 KB", "4.2 MB", "1.3 GB": decimal units, as file managers show sizes. */
export const formatBytes = (bytes: number): string => {
  if (bytes < 1000) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
};

const FORMATS: { id: ExportFormat; label: string }[] = [
  { id: 'csv', label: 'CSV' },
  { id: 'ndjson', label: 'NDJSON (one JSON record a line)' },
];

const ProgressLine = ({
  progress,
  estimate,
  timeZone,
  onCancel,
}: {
  progress: ExportProgress;
  estimate: number;
  timeZone: string;
  onCancel: () => void;
}) => {
  if (progress.status === 'downloading') {
    // The estimate is only that: the bar stops short of full until the last byte is in.
    const share = estimate > 0 ? Math.min(99, Math.floor((progress.bytes / estimate) * 100)) : undefined;
    return (
      <div className="flex flex-wrap items-center gap-3 text-sm">
        <progress className="w-48" max={100} value={share} aria-label="Export progress" />
        <span aria-live="polite" className="tabular">
          {formatBytes(progress.bytes)} of about {formatBytes(estimate)}
          {progress.toDisk ? ', written to the file as it comes' : ''}
        </span>
        <Button size="sm" variant="danger" onClick={onCancel}>
          Cancel export
        </Button>
      </div>
    );
  }
  if (progress.status === 'done')
    return (
      <p role="status" className="text-sm">
        Saved {progress.fileName} ({formatBytes(progress.bytes)}).
        {progress.retentionCut
          ? ` The range begins before the oldest call the service keeps: the file starts at ${formatDateTime(progress.retentionCut, timeZone)}.`
          : ''}
      </p>
    );
  if (progress.status === 'cancelled')
    return (
      <p role="status" className="text-sm">
        Export cancelled; nothing was saved.
      </p>
    );
  if (progress.status === 'failed')
    return (
      <Banner tone="danger" title="The export stopped">
        {progress.message}
      </Banner>
    );
  return null;
};

export interface ExportCallsProps {
  scope: ProviderScope;
  request: ReportRequest;
  /** The days of the range, for the file's name. */
  days: { fromDay: string; toDay: string };
  timeZone: string;
}

export const ExportCalls = ({ scope, request, days, timeZone }: ExportCallsProps) => {
  const [open, setOpen] = useState(false);
  const [format, setFormat] = useState<ExportFormat>('csv');
  const count = useExportCount(scope, request, open);
  const { progress, start, cancel, reset } = useCallExport(scope, request);
  const calls = count.data;
  const estimate = calls === undefined ? 0 : estimatedBytes(calls, format);
  const large = estimate > IN_MEMORY_LIMIT_BYTES;
  const busy = progress.status === 'downloading';
  const fileName = exportFileName(days.fromDay, days.toDay, format);

  return (
    <Panel title="Export all calls">
      <div className="flex flex-col gap-3 text-sm">
        <p className="text-muted">{EXPORT_DEFINITIONS.range} Times are ISO 8601 in UTC.</p>
        {!open ? (
          <div>
            <Button onClick={() => setOpen(true)}>Export all calls…</Button>
          </div>
        ) : count.error ? (
          <Banner tone="danger" title="Cannot count the calls to export">
            {count.error.detail}
          </Banner>
        ) : calls === undefined ? (
          <p>Counting the calls…</p>
        ) : (
          <>
            <fieldset className="flex flex-wrap items-center gap-x-4 gap-y-1" disabled={busy}>
              <legend className="sr-only">File format</legend>
              {FORMATS.map((choice) => (
                <label key={choice.id} className="flex items-center gap-1.5">
                  <input
                    type="radio"
                    name="export-format"
                    className="h-4 w-4 accent-[var(--accent)]"
                    checked={format === choice.id}
                    onChange={() => setFormat(choice.id)}
                  />
                  {choice.label}
                </label>
              ))}
            </fieldset>
            <p aria-live="polite">
              {calls === 0
                ? 'No call in this range.'
                : `${calls.toLocaleString('en-GB')} calls, about ${formatBytes(estimate)} as ${format === 'csv' ? 'CSV' : 'NDJSON'}.`}
            </p>
            {large && calls > 0 ? (
              canWriteToDisk() ? (
                <p>A file this large is written straight to disk: the browser asks where to save it first.</p>
              ) : (
                <Banner tone="warn" title="A large file">
                  This browser keeps the whole file in memory until it is saved, which may run out of memory. A shorter range, or
                  a browser that writes files as they download (Chrome, Edge), is safer.
                </Banner>
              )
            ) : null}
            <div className="flex flex-wrap gap-2">
              <Button
                variant="primary"
                disabled={busy || calls === 0}
                onClick={() => {
                  reset();
                  void start(format, fileName, estimate);
                }}
              >
                Download {fileName}
              </Button>
              <Button variant="ghost" disabled={busy} onClick={() => setOpen(false)}>
                Close
              </Button>
            </div>
          </>
        )}
        <ProgressLine progress={progress} estimate={estimate} timeZone={timeZone} onCancel={cancel} />
      </div>
    </Panel>
  );
};
