/** The two operations of the spec: list calls (GET, singular `provider`) and make a call (POST, plural `providers`). */
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { listCallsQuerySchema, listCallsResponseSchema, MAX_WINDOW_CALLS, MAX_WINDOW_DAYS, type ListCallsQuery } from '../../contract/call-record.js';
import { IDEMPOTENCY_KEY_HEADER, idempotencyKeySchema, makeCallRequestSchema } from '../../contract/make-call.js';
import { routePatterns, SNAPSHOT_AGE_HEADER, type ProviderScope } from '../../contract/paths.js';
import { actorOf } from '../auth/actor.js';
import { tokenKey, type ConcurrencySlots } from '../auth/concurrency-slots.js';
import { IdempotencyStore, outcomeUnknown } from '../idempotency/idempotency-store.js';
import type { Clock } from '../clock.js';
import type { HistoryStore } from '../history/history-store.js';
import { ApiProblem } from '../http/api-problem.js';
import { domainProblem } from '../http/domain-problems.js';
import { requireJsonBody } from '../http/json-body.js';
import type { RouteDoc } from '../http/route-catalog.js';
import { sendPreparedJson } from '../http/send-json.js';
import { zodProblem } from '../http/zod-problem.js';
import type { ProviderRuntime, ProviderRuntimes } from '../runtime/provider-runtimes.js';
import { resolveWindow, type QueryWindow } from './query-window.js';
import { QUEUE_ID_PARAMETER, resolveQueueSelection } from './queue-filter.js';
import { selects, type QueueSelection } from '../queues/queue-selection.js';
import { strongETag, type CallSnapshot } from '../calls/call-snapshot.js';
import { requireCallerAllowed, requirePermission, resolveControlledCall, resolveProvider } from './resolve-provider.js';

const gzipAsync = promisify(gzip);

/** The journal's heavy reads, and the slots that bound how many each token runs at once. */
export interface HeavyReads {
  history: HistoryStore;
  slots: ConcurrencySlots;
}

export interface CallsRoutesOptions {
  registry: ProviderRuntimes;
  history: HistoryStore;
  heavyQueries: ConcurrencySlots;
  clock: Clock;
  /** Live Idempotency-Keys one application may hold. */
  idempotencyKeysPerApplication: number;
}

type ScopeRequest = FastifyRequest<{ Params: ProviderScope }>;

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Calls live at any moment of the window, from the journal, read and serialized in a reader thread
 * under one of the token's heavy-query slots; past MAX_WINDOW_CALLS the client must narrow it.
 */
const sendWindow = async (
  request: FastifyRequest,
  reply: FastifyReply,
  runtime: ProviderRuntime,
  reads: HeavyReads,
  window: QueryWindow,
  isMissedCall: boolean | undefined,
  queues: QueueSelection | undefined,
) => {
  const found = await reads.slots.run(request.principal, () =>
    reads.history.windowList(
      {
        scope: runtime.scope,
        provider: { id: runtime.config.id, name: runtime.config.name },
        from: window.from,
        to: window.to,
        limit: MAX_WINDOW_CALLS,
        ...(isMissedCall === undefined ? {} : { isMissedCall }),
        ...(queues === undefined ? {} : { queues }),
      },
      tokenKey(request.principal),
    ),
  );
  if (found.kind === 'too-many')
    throw new ApiProblem(
      'invalid_request',
      `More than ${MAX_WINDOW_CALLS} ${isMissedCall === undefined ? '' : isMissedCall ? 'missed ' : 'not missed '}calls were live between fromDate (${iso(window.from)}) and toDate (${iso(window.to)}): narrow the window.`,
      { errors: [{ field: 'fromDate', message: `the window must hold at most ${MAX_WINDOW_CALLS} calls` }] },
    );
  const { body, etag } = found;
  return sendPreparedJson(request, reply, { body, etag, gzip: () => gzipAsync(body) });
};

/** The live list of some queues' calls: the snapshot's records of those calls, in list order, tagged like any list. */
const queueList = (snapshot: CallSnapshot, queues: QueueSelection) => {
  const calls = snapshot.calls.filter((call) => selects(queues, call));
  const body = Buffer.from(`{"calls":[${calls.map((call) => snapshot.recordJSON(call)).join(',')}],"totalCalls":${calls.length}}`, 'utf8');
  return { body, etag: strongETag(body), gzip: () => gzipAsync(body) };
};

/** Most polls carry no query at all: skip parsing for them, it is the hot path. */
const hasQuery = (request: FastifyRequest) => request.url.includes('?');

const parseListQuery = (query: unknown): ListCallsQuery => {
  const parsed = listCallsQuerySchema.safeParse(query);
  if (!parsed.success) throw zodProblem('invalid_request', 'The query is not valid', parsed.error, 'is not a known query parameter');
  return parsed.data;
};

const dateParameter = (name: string) => ({ name, in: 'query' as const, schema: { type: 'string', format: 'date-time' } });

/** The other path of the pair: list on the singular `provider`, place on the plural `providers`. */
const toPlural = (path: string) => path.replace(/\/provider\/([^/]+)\/calls$/, '/providers/$1/calls');
const toSingular = (path: string) => path.replace(/\/providers\/([^/]+)\/calls$/, '/provider/$1/calls');

const listCallsDoc: RouteDoc = {
  operationId: 'listCalls',
  summary: 'List active calls',
  description:
    'Calls of this provider and application, oldest `startedAt` first (ties by `callID`). Without dates: the calls live now, ' +
    'plus recently ended ones the provider still reports (with `endedAt`). With `fromDate` and/or `toDate`: the calls live at ' +
    "any moment of that window, ended ones included, from the service's call journal (kept 90 days by default); add " +
    '`isMissedCall=true` (an extension) for only the missed calls of the window, or `false` for the others. A window ' +
    `spans at most ${MAX_WINDOW_DAYS} days and lists at most ${MAX_WINDOW_CALLS} calls; past either the answer is a 400 ` +
    'naming `fromDate`. A missing `toDate` means now and a missing `fromDate` 24 hours before `toDate`; the effective window ' +
    'is echoed. Lists are served from the provider snapshot the service keeps (synced every second by default); the ' +
    `\`${SNAPSHOT_AGE_HEADER}\` header gives its age in milliseconds. Responses carry a strong ETag (send \`If-None-Match\` for ` +
    'a 304) and are gzipped on request. A window list is a heavy query: each token may have a few running or waiting at once ' +
    '(`limits.heavyQueriesPerToken`, 16 by default); past that the answer is a 429 `too_many_heavy_queries` (`Retry-After: 1`).',
  parameters: [
    dateParameter('fromDate'),
    dateParameter('toDate'),
    {
      name: 'isMissedCall',
      in: 'query' as const,
      description: 'Extension, with fromDate or toDate: only the calls of the window whose isMissedCall is this.',
      schema: { type: 'string', enum: ['true', 'false'] },
    },
    QUEUE_ID_PARAMETER,
  ],
  responses: {
    '200': {
      description: 'The calls',
      headers: {
        ETag: { schema: { type: 'string' } },
        [SNAPSHOT_AGE_HEADER]: { description: 'Age of the provider snapshot, in milliseconds', schema: { type: 'integer' } },
      },
      json: listCallsResponseSchema,
    },
    '304': { description: 'Not modified since the ETag sent in If-None-Match' },
  },
  problems: ['forbidden', 'not_found', 'invalid_request', 'provider_unavailable', 'too_many_heavy_queries', 'service_busy'],
  otherMethods: (path) => `To place a call, POST to ${toPlural(path)} (plural "providers").`,
};

const makeCallDoc: RouteDoc = {
  operationId: 'makeCall',
  summary: 'Make a call',
  description:
    'Places an outbound call for a subscriber. Two-step providers ring the subscriber first and dial the remote number once ' +
    'answered; direct-dial providers dial the remote number at once with the subscriber as caller ID. Answers 204 once the ' +
    'provider accepted the call; its progress then shows in the list. Send an `Idempotency-Key` header to make retries ' +
    'safe: within 24 hours the same key and body answer as the first attempt did (a success is replayed with ' +
    '`Idempotent-Replayed: true`, and so is a 504 `provider_timeout`, whose call may exist; any other failure placed no call ' +
    'and its retry tries again), and never place a second call; the same key with another body is a 409 ' +
    '`idempotency_key_reused`. Keys belong to the account and application in the path, are kept in the service\'s database ' +
    '(they hold across restarts and on every instance), and one application may hold a bounded number of them at once ' +
    '(`limits.idempotencyKeysPerApplication`, 200,000 by default): past it the answer is a 429 `too_many_idempotency_keys` ' +
    "whose `Retry-After` says when its oldest key expires; no other application's key is ever evicted. An agent's token (one with `subscriberIDs`) places calls only as those subscribers; any other " +
    '`providerSubscriberID` is a 403 `subscriber_not_allowed`.',
  parameters: [{ name: 'Idempotency-Key', in: 'header', schema: { type: 'string', minLength: 1, maxLength: 255 } }],
  body: makeCallRequestSchema,
  responses: { '204': { description: 'The provider accepted the call' } },
  problems: [
    'forbidden',
    'subscriber_not_allowed',
    'not_found',
    'invalid_request',
    'validation_failed',
    'unsupported_media_type',
    'payload_too_large',
    'subscriber_not_found',
    'subscriber_not_registered',
    'subscriber_inactive',
    'subscriber_mismatch',
    'idempotency_key_reused',
    'too_many_idempotency_keys',
    'provider_error',
    'provider_unavailable',
    'provider_timeout',
  ],
  otherMethods: (path) => `To list calls, GET ${toSingular(path)} (singular "provider").`,
};

const endCallDoc: RouteDoc = {
  operationId: 'endCall',
  summary: 'End a live call (extension)',
  description:
    "A supervisor's intervention: asks the provider to end the call, ringing or answered, and answers 204 once it took the " +
    'request. The call then shows ended, with `endedBy` naming the token that ended it. Needs the `calls:control` ' +
    'permission, which no token has unless its config grants it. Providers that cannot end calls answer 501 `not_supported` ' +
    '(`GET /v1/me` says which can, as `canEndCalls`); a call the service does not list is a 404 `call_not_found`, one that ' +
    'already ended a 409 `call_ended`, and one the provider will not end in its state (a Kamailio call still ringing) a 409 ' +
    "`call_not_endable`. Every attempt is written to the service log and to the journal's audit trail (who, when, which call, " +
    'what came of it).',
  responses: { '204': { description: 'The provider took the request; the call shows ended in the list and the stream' } },
  problems: ['forbidden', 'not_found', 'call_not_found', 'call_ended', 'call_not_endable', 'not_supported', 'provider_error', 'provider_unavailable', 'provider_timeout'],
};

type CallRequest = FastifyRequest<{ Params: ProviderScope & { callID: string } }>;

/** The problem code an attempt ended in, for the audit trail. */
const outcomeOf = (error: unknown): { outcome: string; detail: string } => {
  const problem = domainProblem(error);
  return { outcome: problem?.code ?? 'internal', detail: error instanceof Error ? error.message : String(error) };
};

export const callsRoutes = async (app: FastifyInstance, { registry, history, heavyQueries, clock, idempotencyKeysPerApplication }: CallsRoutesOptions) => {
  const idempotency = new IdempotencyStore(history.idempotencyKeys, clock, { keysPerApplication: idempotencyKeysPerApplication });

  app.get(routePatterns.listCalls, { config: { doc: listCallsDoc } }, async (request: ScopeRequest, reply) => {
    requirePermission(request.principal, 'calls:read');
    const runtime = resolveProvider(registry, request.principal, request.params);
    const query = hasQuery(request) ? parseListQuery(request.query) : {};
    const window = query.fromDate === undefined && query.toDate === undefined ? undefined : resolveWindow(query, clock.now());
    const isMissedCall = query.isMissedCall === undefined ? undefined : query.isMissedCall === 'true';
    const queues = resolveQueueSelection(runtime, query.queueID, request.principal);
    // The live list is one serialized snapshot shared by every reader: a filtered copy of it is the client's to make.
    if (isMissedCall !== undefined && !window)
      throw new ApiProblem('invalid_request', 'isMissedCall filters a window list: give fromDate or toDate with it.', {
        errors: [{ field: 'isMissedCall', message: 'needs fromDate or toDate' }],
      });

    await runtime.sync.ready();
    const read = runtime.sync.live.read();
    if (!read.ok) throw read.failure;
    reply.header(SNAPSHOT_AGE_HEADER, String(read.ageMs));
    if (window) return sendWindow(request, reply, runtime, { history, slots: heavyQueries }, window, isMissedCall, queues);
    if (queues) return sendPreparedJson(request, reply, queueList(read.snapshot, queues));
    return sendPreparedJson(request, reply, read.snapshot);
  });

  app.post(routePatterns.makeCall, { config: { doc: makeCallDoc } }, async (request: ScopeRequest, reply) => {
    requirePermission(request.principal, 'calls:write');
    const runtime = resolveProvider(registry, request.principal, request.params);
    requireJsonBody(request);
    const body = makeCallRequestSchema.safeParse(request.body);
    if (!body.success) throw zodProblem('validation_failed', 'The call request is not valid', body.error);
    // Before the idempotency store: a replayed key must not answer for a subscriber this token may not call as.
    requireCallerAllowed(request.principal, body.data.providerSubscriberID, runtime.scope);

    const actor = actorOf(request.principal);
    const { providerSubscriberID, remoteNumber } = body.data;
    const detail = `as subscriber ${providerSubscriberID} to ${remoteNumber}`;
    // The audit never stands in for the placement's own outcome: a call placed stays placed (no second
    // one on a retry) and a failure keeps its own problem, whatever becomes of the audit's write.
    const audit = (at: number, outcome: { outcome: string; detail?: string }) =>
      history
        .recordCallAction(runtime.scope, { callID: '', action: 'place', ...actor, at, ...outcome })
        .catch((error: unknown) => request.log.error({ err: error, audit: { ...actor, action: 'place', ...outcome } }, 'a placed call was not written to the audit trail'));
    const place = async () => {
      const at = clock.now();
      try {
        await runtime.placeCall(body.data);
      } catch (error) {
        await audit(at, outcomeOf(error));
        throw error;
      }
      request.log.info({ audit: { provider: runtime.config.id, ...actor, action: 'place', detail } }, 'a call was placed');
      await audit(at, { outcome: 'done', detail });
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
      // Keys belong to the account's application: a key of an application this token cannot see is none of its business.
      const fingerprint = IdempotencyStore.fingerprint([scope.providerID, body.data]);
      const { replayed } = await idempotency.run(scope, key.data, fingerprint, place, outcomeUnknown);
      if (replayed) reply.header('idempotent-replayed', 'true');
    }
    return reply.code(204).send();
  });

  app.delete(routePatterns.call, { config: { doc: endCallDoc } }, async (request: CallRequest, reply) => {
    requirePermission(request.principal, 'calls:control');
    const { callID, ...scope } = request.params;
    const runtime = resolveProvider(registry, request.principal, scope);
    if (!runtime.canEndCalls) throw new ApiProblem('not_supported', `Provider "${runtime.config.name}" (${runtime.config.type}) cannot end calls.`);
    const call = await resolveControlledCall(runtime, request.principal, callID, 'end calls');

    const actor = actorOf(request.principal);
    const at = clock.now();
    const audit = { provider: runtime.config.id, callID, ...actor, action: 'end' as const };
    try {
      await runtime.endCall(call, actor.actor, at);
    } catch (error) {
      const { outcome, detail } = outcomeOf(error);
      request.log.warn({ audit: { ...audit, outcome } }, 'a call was not ended');
      await history.recordCallAction(runtime.scope, { callID, action: 'end', ...actor, at, outcome, detail });
      throw error;
    }
    request.log.info({ audit: { ...audit, outcome: 'done' } }, 'a call was ended through the service');
    await history.recordCallAction(runtime.scope, { callID, action: 'end', ...actor, at, outcome: 'done' });
    return reply.code(204).send();
  });
};
