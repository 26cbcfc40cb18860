/**
 * The whole history of a range out as a file (our extension): GET streams it as CSV or NDJSON,
 * HEAD answers how many calls it holds, for a size shown before the download starts.
 */
import type { Readable } from 'node:stream';
import { actorOf } from '../auth/actor.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { routePatterns, type ProviderScope } from '../../contract/paths.js';
import {
  callExportQuerySchema,
  EXPORT_COUNT_HEADER,
  EXPORT_DEFINITIONS,
  MAX_EXPORT_DAYS,
  RETENTION_CUT_HEADER,
} from '../../contract/reports.js';
import { tokenKey, type ConcurrencySlots } from '../auth/concurrency-slots.js';
import type { Clock } from '../clock.js';
import type { CallExportRequest } from '../history/call-export.js';
import type { ExportFormat } from '../history/call-export-format.js';
import { MAX_CONCURRENT_EXPORTS } from '../history/call-exports.js';
import type { HistoryStore } from '../history/history-store.js';
import type { RouteDoc } from '../http/route-catalog.js';
import { zodProblem } from '../http/zod-problem.js';
import type { ProviderRuntimes } from '../runtime/provider-runtimes.js';
import { prepareAnalytics, windowParameters } from './analytics-routes.js';
import { QUEUE_ID_PARAMETER, resolveQueueSelection } from './queue-filter.js';
import { reportRangeOf } from './report-range.js';
import { requirePermission } from './resolve-provider.js';

export interface CallExportRouteOptions {
  registry: ProviderRuntimes;
  history: HistoryStore;
  /** An export holds one of its token's heavy-query slots until its last byte is sent, a count while it counts. */
  heavyQueries: ConcurrencySlots;
  clock: Clock;
  /** How long the journal keeps calls (`history.retentionDays`). */
  retentionDays: number;
}

type ScopeRequest = FastifyRequest<{ Params: ProviderScope }>;

const DAY_MS = 86_400_000;

const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8; header=present',
  ndjson: 'application/x-ndjson',
};

const iso = (ms: number) => new Date(ms).toISOString();

/** A moment as the file name carries it: ISO 8601's basic format, to the second, with no character a file system refuses. */
const fileStamp = (ms: number) =>
  iso(ms)
    .replace(/\.\d{3}Z$/, 'Z')
    .replaceAll('-', '')
    .replaceAll(':', '');

/** `calls_<provider>_<from>_<to>.<format>`, the provider's ID kept to characters any file system takes. */
const exportFileName = (providerID: string, from: number, to: number, format: ExportFormat): string =>
  `calls_${providerID.replace(/[^A-Za-z0-9._-]/g, '-')}_${fileStamp(from)}_${fileStamp(to)}.${format}`;

/** The checks shared by GET and HEAD: permission, provider, query, range, queues; then what the file is. */
const prepareExport = (request: ScopeRequest, { registry, clock, retentionDays }: CallExportRouteOptions): CallExportRequest => {
  const runtime = prepareAnalytics(request, registry);
  requirePermission(request.principal, 'calls:export');
  const parsed = callExportQuerySchema.safeParse(request.query);
  if (!parsed.success)
    throw zodProblem('invalid_request', 'The query is not valid', parsed.error, 'is not a known query parameter');
  const query = parsed.data;
  // Both dates are required (the schema says so); a calendar date is midnight UTC, as for the list.
  const { from, to } = reportRangeOf(query, 'UTC', clock.now(), MAX_EXPORT_DAYS);
  const queues = resolveQueueSelection(runtime, query.queueID, request.principal);
  const cut = clock.now() - retentionDays * DAY_MS;
  return {
    scope: runtime.scope,
    provider: { id: runtime.config.id, name: runtime.config.name },
    from,
    to,
    ...(queues === undefined ? {} : { queues }),
    format: query.format ?? 'csv',
    ...(from < cut ? { retentionCut: cut } : {}),
    retentionDays,
  };
};

const fileHeaders = (reply: FastifyReply, file: CallExportRequest) => {
  const name = exportFileName(file.provider.id, file.from, file.to, file.format);
  reply.header('content-type', CONTENT_TYPES[file.format]);
  reply.header('content-disposition', `attachment; filename="${name}"`);
  reply.header('cache-control', 'no-store');
  if (file.retentionCut !== undefined) reply.header(RETENTION_CUT_HEADER, iso(file.retentionCut));
};

const exportDoc: RouteDoc = {
  operationId: 'exportCalls',
  summary: 'Export every call of a range as a file (extension)',
  description:
    `${EXPORT_DEFINITIONS.range} \`format=csv\` (the default): RFC 4180, UTF-8, CRLF line ends, a header row naming every field of ` +
    'the call record in its order, then a row per call: timestamps in ISO 8601 UTC, booleans as `true`/`false`, an absent field ' +
    'empty and an empty text `""`, a field holding a comma, a quote, CR or LF quoted (its quotes doubled). Values are written as they are, never altered: ' +
    'a name that begins with `=`, `+`, `-` or `@` stays so, so import the file into a spreadsheet as text. `format=ndjson`: one call ' +
    'record per line, exactly as the list gives it. The file name (`Content-Disposition`) carries the provider and the range. ' +
    `${EXPORT_DEFINITIONS.retention} In NDJSON only the header says so: every line stays a call record. Both dates are required ` +
    `(a calendar date is midnight UTC); fromDate must be before toDate and the range at most ${MAX_EXPORT_DAYS} days, else a 400 naming fromDate. ` +
    'The file streams as it is read from the database, in bounded batches, as fast as the client takes it; a client that goes away ' +
    `stops the read. \`HEAD\` with the same query answers the same headers and \`${EXPORT_COUNT_HEADER}\`, the number of calls the ` +
    'file holds, without writing it. An export is a heavy query for its token until its last byte is sent (a 429 ' +
    `\`too_many_heavy_queries\` past \`limits.heavyQueriesPerToken\`); the service writes ${MAX_CONCURRENT_EXPORTS} files at once, ` +
    'past which the answer is a 503 `service_busy` (`Retry-After: 1`).',
  parameters: [
    ...windowParameters.map((parameter) => ({ ...parameter, required: true })),
    QUEUE_ID_PARAMETER,
    { name: 'format', in: 'query', schema: { type: 'string', enum: ['csv', 'ndjson'], default: 'csv' } },
  ],
  responses: {
    '200': {
      description: 'The file',
      content: { type: 'text/csv', description: 'RFC 4180 with a header row; or application/x-ndjson with format=ndjson.' },
      headers: {
        'Content-Disposition': {
          description: 'attachment; filename="calls_<provider>_<from>_<to>.<format>"',
          schema: { type: 'string' },
        },
        [RETENTION_CUT_HEADER]: { description: EXPORT_DEFINITIONS.retention, schema: { type: 'string', format: 'date-time' } },
        [EXPORT_COUNT_HEADER]: { description: 'On HEAD only: the calls the file holds.', schema: { type: 'integer' } },
      },
    },
  },
  problems: ['forbidden', 'not_found', 'invalid_request', 'too_many_heavy_queries', 'service_busy'],
  otherMethods: () => 'An export is read-only: GET the file, or HEAD for its count.',
};

export const callExportRoute = async (app: FastifyInstance, options: CallExportRouteOptions) => {
  const { history, heavyQueries } = options;
  /** Files being sent: a closing service ends them rather than wait for their clients. */
  const sending = new Set<Readable>();

  // Fastify would answer HEAD by running the GET handler, that is by starting an export: HEAD counts instead.
  app.head(routePatterns.callExport, async (request: ScopeRequest, reply) => {
    const file = prepareExport(request, options);
    const count = await heavyQueries.run(request.principal, () => history.exportCount(file, tokenKey(request.principal)));
    fileHeaders(reply, file);
    reply.header(EXPORT_COUNT_HEADER, String(count));
    return reply.send();
  });

  app.get(
    routePatterns.callExport,
    { exposeHeadRoute: false, config: { doc: exportDoc } },
    async (request: ScopeRequest, reply) => {
      const file = prepareExport(request, options);
      const actor = actorOf(request.principal);
      const queues = file.queues ? ` of queues ${[...file.queues.ids, ...(file.queues.none ? ['none'] : [])].join(',') || '(none)'}` : '';
      const own = file.queues?.subscribers?.length ? ` and the calls of ${file.queues.subscribers.join(',')}` : '';
      const detail = `${file.format} ${iso(file.from)}/${iso(file.to)}${queues}${own}`;
      const release = heavyQueries.acquire(request.principal);
      let stream: Readable;
      try {
        stream = history.exports.open(file);
      } catch (error) {
        release();
        throw error;
      }
      sending.add(stream);
      stream.once('close', () => {
        sending.delete(stream);
        release();
      });
      // Recorded once the file is on its way: an export refused (busy, over its limit) took nothing out.
      request.log.info({ audit: { provider: file.scope.providerID, ...actor, action: 'export', detail } }, 'calls were exported');
      try {
        await history.recordCallAction(file.scope, { callID: '', action: 'export', ...actor, at: options.clock.now(), outcome: 'done', detail });
      } catch (error) {
        // No file leaves unrecorded.
        stream.destroy();
        throw error;
      }
      fileHeaders(reply, file);
      return reply.send(stream);
    },
  );

  app.addHook('preClose', async () => {
    for (const stream of sending) stream.destroy();
  });
};
