/**
 * The export of every call of a range: how many calls it holds (asked first, so its size is known
 * before it starts), then the file itself, fetched with the token in the header and read as it arrives.
 */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { paths, type ProviderScope } from '../../../../contract/paths.js';
import { EXPORT_COUNT_HEADER, RETENTION_CUT_HEADER } from '../../../../contract/reports.js';
import type { ApiClient } from '../../../lib/api/api-client.js';
import { ApiError } from '../../../lib/api/api-error.js';
import { reportKeys, reportSearch, type ReportRequest } from './report-queries.js';

export type ExportFormat = 'csv' | 'ndjson';

/** Bytes a call takes in each format, about: the record's fields with typical names and numbers. */
export const BYTES_PER_CALL: Record<ExportFormat, number> = { csv: 420, ndjson: 720 };

const exportPath = (scope: ProviderScope, request: ReportRequest, format: ExportFormat) =>
  `${paths.callExport(scope)}${reportSearch(request, { format })}`;

/** How many calls the export holds: the service answers a HEAD of the export with the count in a header. */
export const exportCountOf = (headers: Headers): number => {
  const count = Number(headers.get(EXPORT_COUNT_HEADER) ?? NaN);
  if (!Number.isSafeInteger(count) || count < 0)
    throw new ApiError(
      'invalid_response',
      `The service did not say how many calls the export holds (header ${EXPORT_COUNT_HEADER}).`,
    );
  return count;
};

/**
 * The count, asked once the reader opens the export (`enabled`); asked again when the range moves
 * (today's ends at the current minute), the last count shown meanwhile.
 */
export const exportCountQueryOptions = (client: ApiClient, scope: ProviderScope, request: ReportRequest, enabled: boolean) =>
  queryOptions<number>({
    queryKey: reportKeys.exportCount(client.baseURL, scope, request),
    queryFn: ({ signal }) => client.head(exportPath(scope, request, 'csv'), signal).then(exportCountOf),
    enabled,
    staleTime: 60_000,
    retry: false,
    placeholderData: keepPreviousData,
  });

/**
 * Reads the export's body chunk by chunk into `write`, telling `onBytes` the bytes so far; resolves
 * to the first moment the journal still holds when the range begins before it (else undefined).
 */
export const readExport = async (
  client: ApiClient,
  scope: ProviderScope,
  request: ReportRequest,
  format: ExportFormat,
  signal: AbortSignal,
  write: (chunk: Uint8Array) => Promise<void> | void,
  onBytes: (bytes: number) => void,
): Promise<string | undefined> => {
  const response = await client.download(exportPath(scope, request, format), signal);
  if (!response.body) throw new ApiError('invalid_response', 'The service sent no file.');
  const reader = response.body.getReader();
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return response.headers.get(RETENTION_CUT_HEADER) ?? undefined;
    await write(value);
    bytes += value.byteLength;
    onBytes(bytes);
  }
};

/** "callboard-calls-2026-11-01-to-2026-11-07.csv": the days of the range, as the page names them. */
export const exportFileName = (fromDay: string, toDay: string, format: ExportFormat): string =>
  `callboard-calls-${fromDay}${fromDay === toDay ? '' : `-to-${toDay}`}.${format === 'csv' ? 'csv' : 'ndjson'}`;
