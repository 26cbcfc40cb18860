/** The two operations of the spec: list calls (GET, singular `provider`) and make a call (POST, plural `providers`). */
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { listCallsQuerySchema, MAX_WINDOW_CALLS, type ListCallsQuery } from '../../contract/call-record.js';
import { IDEMPOTENCY_KEY_HEADER, idempotencyKeySchema, makeCallRequestSchema } from '../../contract/make-call.js';
import { routePatterns, SNAPSHOT_AGE_HEADER, type ProviderScope } from '../../contract/paths.js';
import { strongETag, toCallRecord } from '../calls/call-snapshot.js';
import { IdempotencyStore } from '../calls/idempotency-store.js';
import type { Clock } from '../clock.js';
import type { HistoryStore } from '../history/history-store.js';
import { ApiProblem } from '../http/api-problem.js';
import { sendPreparedJson } from '../http/send-json.js';
import { zodProblem } from '../http/zod-problem.js';
import { callWithDeadline } from '../providers/call-with-deadline.js';
import { providerProblem } from '../providers/provider-problem.js';
import type { ProviderRegistry, ProviderRuntime } from '../providers/provider-registry.js';
import { resolveWindow, type QueryWindow } from './query-window.js';
import { requireCallerAllowed, requirePermission, resolveProvider } from './resolve-provider.js';

const gzipAsync = promisify(gzip);

export interface CallsRoutesOptions {
  registry: ProviderRegistry;
  history: HistoryStore;
  clock: Clock;
}

type ScopeRequest = FastifyRequest<{ Params: ProviderScope }>;

const iso = (ms: number) => new Date(ms).toISOString();

/** Calls live at any moment of the window, from the journal; past MAX_WINDOW_CALLS the client must narrow it. */
const sendWindow = async (request: FastifyRequest, reply: FastifyReply, runtime: ProviderRuntime, history: HistoryStore, window: QueryWindow) => {
  const found = await history.callsLiveDuring(runtime.scope, window.from, window.to, MAX_WINDOW_CALLS + 1);
  if (found.length > MAX_WINDOW_CALLS)
    throw new ApiProblem(
      'invalid_request',
      `More than ${MAX_WINDOW_CALLS} calls were live between fromDate (${iso(window.from)}) and toDate (${iso(window.to)}): narrow the window.`,
      { errors: [{ field: 'fromDate', message: `the window must hold at most ${MAX_WINDOW_CALLS} calls` }] },
    );
  const calls = found.map((call) => toCallRecord(call, runtime.config.id, runtime.config.name));
  const body = Buffer.from(JSON.stringify({ calls, fromDate: iso(window.from), toDate: iso(window.to), totalCalls: calls.length }));
  return sendPreparedJson(request, reply, { body, etag: strongETag(body), gzip: () => gzipAsync(body) });
};

/** Most polls carry no query at all: skip parsing for them, it is the hot path. */
const hasQuery = (request: FastifyRequest) => request.url.includes('?');

const parseListQuery = (query: unknown): ListCallsQuery => {
  const parsed = listCallsQuerySchema.safeParse(query);
  if (!parsed.success) throw zodProblem('invalid_request', 'The query is not valid', parsed.error, 'is not a known query parameter');
  return parsed.data;
};

export const callsRoutes = async (app: FastifyInstance, { registry, history, clock }: CallsRoutesOptions) => {
  const idempotency = new IdempotencyStore(clock);

  app.get(routePatterns.listCalls, async (request: ScopeRequest, reply) => {
    requirePermission(request.principal, 'calls:read');
    const runtime = resolveProvider(registry, request.principal, request.params);
    const query = hasQuery(request) ? parseListQuery(request.query) : {};
    const window = query.fromDate === undefined && query.toDate === undefined ? undefined : resolveWindow(query, clock.now());

    await runtime.sync.ready();
    const read = runtime.sync.read();
    if (!read.ok) throw providerProblem(read.failure, runtime.config.name);
    reply.header(SNAPSHOT_AGE_HEADER, String(read.ageMs));
    if (window) return sendWindow(request, reply, runtime, history, window);
    return sendPreparedJson(request, reply, read.snapshot);
  });

  app.post(routePatterns.makeCall, async (request: ScopeRequest, reply) => {
    requirePermission(request.principal, 'calls:write');
    const runtime = resolveProvider(registry, request.principal, request.params);
    const contentType = request.headers['content-type'] ?? '';
    if (!/^application\/json\s*(;|$)/i.test(contentType))
      throw new ApiProblem('unsupported_media_type', 'The request body must be JSON: send "content-type: application/json".');
    const body = makeCallRequestSchema.safeParse(request.body);
    if (!body.success) throw zodProblem('validation_failed', 'The call request is not valid', body.error);
    // Before the idempotency store: a replayed key must not answer for a subscriber this token may not call as.
    requireCallerAllowed(request.principal, body.data.providerSubscriberID);

    const place = async () => {
      try {
        await callWithDeadline(runtime.config.requestTimeoutMs, (signal) => runtime.phoneSystem.placeCall(body.data, signal));
      } catch (error) {
        throw providerProblem(error, runtime.config.name);
      }
      // Pull the new call into the snapshot soon rather than at the next tick, so the caller sees it ringing at once.
      runtime.sync.syncSoon();
    };

    const keyHeader = request.headers[IDEMPOTENCY_KEY_HEADER];
    if (keyHeader === undefined) {
      await place();
    } else {
      const key = idempotencyKeySchema.safeParse(keyHeader);
      if (!key.success)
        throw new ApiProblem('invalid_request', 'The Idempotency-Key header must be 1 to 255 visible ASCII characters.', {
          errors: [{ field: 'Idempotency-Key', message: 'must be 1 to 255 visible ASCII characters' }],
        });
      const scope = runtime.scope;
      const fingerprint = IdempotencyStore.fingerprint([scope.applicationID, scope.providerID, body.data]);
      const outcomeUnknown = (error: unknown) => error instanceof ApiProblem && error.code === 'provider_timeout';
      const { replayed } = await idempotency.run(scope.accountID, key.data, fingerprint, place, outcomeUnknown);
      if (replayed) reply.header('idempotent-replayed', 'true');
    }
    return reply.code(204).send();
  });
};
