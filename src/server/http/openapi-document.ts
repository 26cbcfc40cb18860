/** The OpenAPI 3.1 document, generated from the contract's zod schemas (never written by hand). */
import { z } from 'zod';
import { concurrencyResponseSchema, MAX_BUCKETS, subscriberActivityResponseSchema } from '../../contract/analytics.js';
import { callRecordSchema, listCallsResponseSchema, MAX_WINDOW_CALLS, MAX_WINDOW_DAYS } from '../../contract/call-record.js';
import { meResponseSchema } from '../../contract/me.js';
import { makeCallRequestSchema } from '../../contract/make-call.js';
import { problemCodes, problemSchema, type ProblemCode } from '../../contract/problem.js';
import { routePatterns, SNAPSHOT_AGE_HEADER } from '../../contract/paths.js';
import { nextPlacedCallSchema, simulatorFailureSchema } from '../../contract/simulator-control.js';
import { listSubscribersResponseSchema } from '../../contract/subscriber.js';

const schema = (s: z.ZodType, io: 'input' | 'output' = 'output') => {
  const { $schema: _drop, ...rest } = z.toJSONSchema(s, { io, unrepresentable: 'any' }) as Record<string, unknown>;
  return rest;
};

/** `/a/:b` to `/a/{b}`. */
const openapiPath = (pattern: string) => pattern.replace(/:([A-Za-z]+)/g, '{$1}');

const scopeParameters = ['accountID', 'applicationID', 'providerID'].map((name) => ({
  name,
  in: 'path',
  required: true,
  schema: { type: 'string' },
}));

const problemResponse = (...codes: ProblemCode[]) => ({
  description: codes.map((code) => `\`${code}\``).join(', '),
  content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
});

const errorResponses = (codes: ProblemCode[]) => {
  const byStatus = new Map<number, ProblemCode[]>();
  for (const code of codes) byStatus.set(problemCodes[code], [...(byStatus.get(problemCodes[code]) ?? []), code]);
  return Object.fromEntries([...byStatus].map(([status, list]) => [String(status), problemResponse(...list)]));
};

const common: ProblemCode[] = ['unauthorized', 'forbidden', 'not_found', 'rate_limited', 'internal'];

export const buildOpenApiDocument = () => ({
  openapi: '3.1.0',
  info: {
    title: 'Callboard call-control API',
    version: '1.0.0',
    description:
      'List the active calls of a provider within an application, and place outbound calls. ' +
      'Errors are RFC 9457 problem details with a stable `code`.',
  },
  security: [{ bearer: [] }],
  paths: {
    [openapiPath(routePatterns.listCalls)]: {
      get: {
        operationId: 'listCalls',
        summary: 'List active calls',
        description:
          'Calls of this provider and application, oldest `startedAt` first (ties by `callID`). Without dates: the calls live now, ' +
          'plus recently ended ones the provider still reports (with `endedAt`). With `fromDate` and/or `toDate`: the calls live at ' +
          "any moment of that window, ended ones included, from the service's call journal (kept 90 days by default). A window " +
          `spans at most ${MAX_WINDOW_DAYS} days and lists at most ${MAX_WINDOW_CALLS} calls; past either the answer is a 400 ` +
          'naming `fromDate`. A missing ' +
          '`toDate` means now and a missing `fromDate` 24 hours before `toDate`; the effective window is echoed. Lists are served ' +
          `from the provider snapshot the service keeps (synced every second by default); the \`${SNAPSHOT_AGE_HEADER}\` header ` +
          'gives its age in milliseconds. Responses carry a strong ETag (send `If-None-Match` for a 304) and are gzipped on request.',
        parameters: [
          ...scopeParameters,
          { name: 'fromDate', in: 'query', required: false, schema: { type: 'string', format: 'date-time' } },
          { name: 'toDate', in: 'query', required: false, schema: { type: 'string', format: 'date-time' } },
        ],
        responses: {
          '200': {
            description: 'The calls',
            headers: {
              ETag: { schema: { type: 'string' } },
              [SNAPSHOT_AGE_HEADER]: { description: 'Age of the provider snapshot, in milliseconds', schema: { type: 'integer' } },
            },
            content: { 'application/json': { schema: { $ref: '#/components/schemas/ListCallsResponse' } } },
          },
          '304': { description: 'Not modified since the ETag sent in If-None-Match' },
          ...errorResponses([...common, 'invalid_request', 'method_not_allowed', 'provider_unavailable']),
        },
      },
    },
    [openapiPath(routePatterns.makeCall)]: {
      post: {
        operationId: 'makeCall',
        summary: 'Make a call',
        description:
          'Places an outbound call for a subscriber. Two-step providers ring the subscriber first and dial the remote number once ' +
          'answered; direct-dial providers dial the remote number at once with the subscriber as caller ID. Answers 204 once the ' +
          'provider accepted the call; its progress then shows in the list. Send an `Idempotency-Key` header to make retries ' +
          'safe: within 24 hours the same key and body answer as the first attempt did (a success is replayed with ' +
          '`Idempotent-Replayed: true`, and so is a 504 `provider_timeout`, whose call may exist; any other failure placed no call ' +
          'and its retry tries again), and never place a second call; the ' +
          'same key with another body is a 409 `idempotency_key_reused`. An agent\'s token (one whose `/v1/me` lists ' +
          '`subscriberIDs`) places calls only as those subscribers: any other `providerSubscriberID` is a 403 ' +
          '`subscriber_not_allowed` naming the field, checked before the Idempotency-Key, so a replayed key never answers for it.',
        parameters: [
          ...scopeParameters,
          { name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', minLength: 1, maxLength: 255 } },
        ],
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { $ref: '#/components/schemas/MakeCallRequest' } } },
        },
        responses: {
          '204': { description: 'The provider accepted the call' },
          ...errorResponses([
            ...common,
            'subscriber_not_allowed',
            'invalid_request',
            'validation_failed',
            'method_not_allowed',
            'unsupported_media_type',
            'payload_too_large',
            'subscriber_not_found',
            'subscriber_not_registered',
            'subscriber_inactive',
            'subscriber_mismatch',
            'idempotency_key_reused',
            'provider_error',
            'provider_unavailable',
            'provider_timeout',
          ]),
        },
      },
    },
    [openapiPath(routePatterns.concurrency)]: {
      get: {
        operationId: 'getConcurrency',
        summary: 'Concurrent calls over a window, bucketed (extension)',
        description:
          'Computed in the database from the call journal. Each bucket gives the most calls live at once (in total and by ' +
          'direction), the time-weighted average, and the calls that started in it and how many of those were missed. A missing ' +
          '`toDate` means now and a missing `fromDate` 24 hours before `toDate`. Without `bucketSeconds` the smallest of 1, 2, 5, ' +
          `10, 15, 30 minutes, 1, 2, 3, 6, 12 or 24 hours that leaves at most ${MAX_BUCKETS} buckets is used; asking for more than ` +
          `${MAX_BUCKETS} buckets, or a window longer than ${MAX_WINDOW_DAYS} days, is a 400 naming the parameter. For a provider ` +
          "whose past the service backfilled (first seen with an empty journal), `historyFill` says how far that past is filled: " +
          'newest first, complete from `filledFrom` to `to`; while `status` is `filling`, buckets before `filledFrom` may lack calls.',
        parameters: [
          ...scopeParameters,
          { name: 'fromDate', in: 'query', required: false, schema: { type: 'string', format: 'date-time' } },
          { name: 'toDate', in: 'query', required: false, schema: { type: 'string', format: 'date-time' } },
          { name: 'bucketSeconds', in: 'query', required: false, schema: { type: 'integer', minimum: 1 } },
        ],
        responses: {
          '200': { description: 'The buckets, oldest first', content: { 'application/json': { schema: { $ref: '#/components/schemas/ConcurrencyResponse' } } } },
          ...errorResponses([...common, 'invalid_request']),
        },
      },
    },
    [openapiPath(routePatterns.subscriberActivity)]: {
      get: {
        operationId: 'getSubscriberActivity',
        summary: 'Calls per subscriber over a window (extension)',
        description: `Calls that started in the window, per subscriber they reached, busiest first; same window rules as the concurrency endpoint.`,
        parameters: [
          ...scopeParameters,
          { name: 'fromDate', in: 'query', required: false, schema: { type: 'string', format: 'date-time' } },
          { name: 'toDate', in: 'query', required: false, schema: { type: 'string', format: 'date-time' } },
        ],
        responses: {
          '200': { description: 'Subscribers, most calls first', content: { 'application/json': { schema: { $ref: '#/components/schemas/SubscriberActivityResponse' } } } },
          ...errorResponses([...common, 'invalid_request']),
        },
      },
    },
    [openapiPath(routePatterns.subscribers)]: {
      get: {
        operationId: 'listSubscribers',
        summary: "The provider's subscribers (extension)",
        parameters: scopeParameters,
        responses: {
          '200': { description: 'Subscribers by last name', content: { 'application/json': { schema: { $ref: '#/components/schemas/ListSubscribersResponse' } } } },
          ...errorResponses([...common, 'provider_error', 'provider_unavailable', 'provider_timeout']),
        },
      },
    },
    '/v1/me': {
      get: {
        operationId: 'me',
        summary: 'What this token may see (extension)',
        description:
          'The account, the applications and providers the token may see, its permissions, and, for an agent\'s token, ' +
          '`subscriberIDs`: the only subscribers it may place calls as.',
        responses: {
          '200': { description: 'Account, applications, providers, permissions, and the subscribers an agent\'s token places calls as', content: { 'application/json': { schema: { $ref: '#/components/schemas/MeResponse' } } } },
          ...errorResponses(['unauthorized', 'rate_limited']),
        },
      },
    },
    [openapiPath(routePatterns.simulatorFailure)]: {
      put: {
        operationId: 'setSimulatorFailure',
        summary: 'Make a simulated provider fail, stall or recover (extension)',
        description: 'Only for simulator providers whose config sets `settings.control`; others answer 404.',
        parameters: scopeParameters,
        requestBody: {
          required: true,
          content: { 'application/json': { schema: schema(simulatorFailureSchema, 'input') } },
        },
        responses: { '204': { description: 'Set' }, ...errorResponses([...common, 'validation_failed']) },
      },
    },
    [openapiPath(routePatterns.simulatorNextPlacedCall)]: {
      put: {
        operationId: 'scriptNextPlacedCall',
        summary: 'How the next call placed through a simulated provider goes (extension)',
        description: 'Only for simulator providers whose config sets `settings.control`. Times are simulated milliseconds.',
        parameters: scopeParameters,
        requestBody: {
          required: true,
          content: { 'application/json': { schema: schema(nextPlacedCallSchema, 'input') } },
        },
        responses: { '204': { description: 'Scripted' }, ...errorResponses([...common, 'validation_failed']) },
      },
    },
    '/healthz': { get: { operationId: 'health', summary: 'Liveness', security: [], responses: { '200': { description: 'Up' } } } },
    '/metrics': { get: { operationId: 'metrics', summary: 'Prometheus metrics', security: [], responses: { '200': { description: 'Text exposition format' } } } },
  },
  components: {
    securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
    schemas: {
      CallRecord: schema(callRecordSchema),
      ListCallsResponse: schema(listCallsResponseSchema),
      MakeCallRequest: schema(makeCallRequestSchema, 'input'),
      Problem: schema(problemSchema),
      MeResponse: schema(meResponseSchema),
      ListSubscribersResponse: schema(listSubscribersResponseSchema),
      ConcurrencyResponse: schema(concurrencyResponseSchema),
      SubscriberActivityResponse: schema(subscriberActivityResponseSchema),
    },
  },
});
