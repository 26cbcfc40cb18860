/** Query options for the interval and agents reports; answers are parsed with the contract's schemas. */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { paths, type ProviderScope } from '../../../../contract/paths.js';
import { agentReportSchema, intervalReportSchema, type IntervalMinutes } from '../../../../contract/reports.js';
import type { ApiClient } from '../../../lib/api/api-client.js';
import { providerKey } from '../../../lib/api/query-keys.js';
import type { ReportWindow } from '../utils/report-range.js';

/** What a report is asked for: its instants, and the queues (the `queueID=` value; empty for every queue). */
export interface ReportRequest {
  window: ReportWindow;
  queueParam: string;
}

/** `?fromDate=…&toDate=…[&queueID=…]` plus `extra`. */
export const reportSearch = ({ window, queueParam }: ReportRequest, extra: Record<string, string> = {}): string =>
  `?${new URLSearchParams({
    fromDate: new Date(window.from).toISOString(),
    toDate: new Date(window.to).toISOString(),
    ...(queueParam ? { queueID: queueParam } : {}),
    ...extra,
  })}`;

/**
 * A report is asked once per window: a past range does not change, and today's window ends at the
 * current minute, so each new minute is a new key (the last answer stays on screen meanwhile). A
 * month of quarter hours costs the service seconds: it is never asked again for the same window.
 */
const common = { staleTime: Infinity, placeholderData: keepPreviousData, retry: 1 } as const;

export const reportKeys = {
  all: ['reports'] as const,
  provider: (baseURL: string, scope: ProviderScope) => [...reportKeys.all, ...providerKey(baseURL, scope)] as const,
  intervals: (baseURL: string, scope: ProviderScope, request: ReportRequest, intervalMinutes: IntervalMinutes) =>
    [
      ...reportKeys.provider(baseURL, scope),
      'intervals',
      request.window.from,
      request.window.to,
      request.queueParam,
      intervalMinutes,
    ] as const,
  agents: (baseURL: string, scope: ProviderScope, request: ReportRequest) =>
    [...reportKeys.provider(baseURL, scope), 'agents', request.window.from, request.window.to, request.queueParam] as const,
  exportCount: (baseURL: string, scope: ProviderScope, request: ReportRequest) =>
    [...reportKeys.provider(baseURL, scope), 'export-count', request.window.from, request.window.to, request.queueParam] as const,
};

export const intervalReportQueryOptions = (
  client: ApiClient,
  scope: ProviderScope,
  request: ReportRequest,
  intervalMinutes: IntervalMinutes,
) =>
  queryOptions({
    ...common,
    queryKey: reportKeys.intervals(client.baseURL, scope, request, intervalMinutes),
    queryFn: ({ signal }) =>
      client.get(
        `${paths.intervalReport(scope)}${reportSearch(request, { intervalMinutes: String(intervalMinutes) })}`,
        intervalReportSchema,
        signal,
      ),
  });

export const agentReportQueryOptions = (client: ApiClient, scope: ProviderScope, request: ReportRequest) =>
  queryOptions({
    ...common,
    queryKey: reportKeys.agents(client.baseURL, scope, request),
    queryFn: ({ signal }) => client.get(`${paths.agentReport(scope)}${reportSearch(request)}`, agentReportSchema, signal),
  });
