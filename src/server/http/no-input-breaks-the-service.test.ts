/** Property: no request of any shape makes the service answer 500 or break its problem format. */
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { problemSchema } from '../../contract/problem.js';
import { subscriber } from '../test-support/scripted-phone-system.js';
import { buildTestApp, tokens, type TestApp } from '../test-support/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ rateLimitPerMinute: 1_000_000 });
  t.phone('acme/support/pbx').subscribers = [subscriber({ providerSubscriberID: 'agt-1' })];
  await t.app.providers.syncAll();
});
afterAll(async () => {
  await t.app.close();
});

const segment = fc.oneof(
  fc.constantFrom('acme', 'support', 'pbx', 'globex', 'sales', 'trunk', '', '..', '%', '%00', '%ZZ', '%2F', 'calls', 'provider', 'providers'),
  fc.string({ maxLength: 12 }).map(encodeURIComponent),
  fc.string({ unit: 'binary', maxLength: 8 }).map(encodeURIComponent),
);

const path = fc.oneof(
  fc
    .tuple(segment, segment, fc.constantFrom('provider', 'providers'), segment, fc.constantFrom('calls', 'subscribers', ''))
    .map(([a, b, kind, p, tail]) => `/v1/accounts/${a}/applications/${b}/${kind}/${p}/${tail}`),
  fc.array(segment, { maxLength: 8 }).map((parts) => `/${parts.join('/')}`),
  fc.constantFrom('/v1/me', '/healthz', '/metrics', '/v1/openapi.json'),
);

const query = fc.oneof(
  fc.constant(''),
  fc.dictionary(fc.constantFrom('fromDate', 'toDate', 'x', 'fromDate[]'), fc.oneof(fc.string(), fc.date({ noInvalidDate: true }).map((d) => d.toISOString()))).map(
    (q) => `?${new URLSearchParams(q as Record<string, string>).toString()}`,
  ),
  fc.string({ maxLength: 30 }).map((s) => `?${s}`),
);

const authorization = fc.oneof(
  fc.constant(undefined),
  fc.constantFrom(`Bearer ${tokens.acmeAll}`, `bearer ${tokens.globex}`, `Bearer ${tokens.acmeSupportRead}`, 'Bearer', 'Basic x'),
  fc.string({ maxLength: 60 }).map((s) => `Bearer ${s}`),
);

const jsonBody = fc.oneof(
  fc.record(
    {
      providerSubscriberID: fc.oneof(fc.constant('agt-1'), fc.jsonValue()),
      remoteNumber: fc.oneof(fc.stringMatching(/^[0-9]{1,20}$/), fc.jsonValue()),
      providerSubscriberExtension: fc.oneof(fc.stringMatching(/^[0-9]{0,12}$/), fc.jsonValue()),
      extra: fc.jsonValue(),
    },
    { requiredKeys: [] },
  ).map((o) => JSON.stringify(o)),
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc.string({ maxLength: 200 }),
  fc.string({ unit: 'binary', maxLength: 200 }),
);

const request = fc.record({
  method: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'),
  url: fc.tuple(path, query).map(([p, q]) => p + q),
  authorization,
  contentType: fc.oneof(fc.constant(undefined), fc.constantFrom('application/json', 'text/plain', 'application/json; charset=latin1', 'multipart/form-data', 'application/x-www-form-urlencoded'), fc.string({ maxLength: 20 })),
  acceptEncoding: fc.oneof(fc.constant(undefined), fc.constantFrom('gzip', 'gzip;q=0', '*', 'br', 'identity;q=0'), fc.string({ maxLength: 20 })),
  ifNoneMatch: fc.oneof(fc.constant(undefined), fc.constant('*'), fc.string({ maxLength: 40 })),
  idempotencyKey: fc.oneof(fc.constant(undefined), fc.string({ maxLength: 300 })),
  body: fc.oneof(fc.constant(undefined), jsonBody),
});

const headerSafe = (value: string | undefined) => (value === undefined || /^[\t\x20-\x7e\x80-\xff]*$/.test(value) ? value : undefined);

describe('any input', () => {
  it('never gets a 500, and every error is a well-formed problem', async () => {
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const headers: Record<string, string> = {};
        const set = (name: string, value: string | undefined) => {
          const safe = headerSafe(value);
          if (safe !== undefined) headers[name] = safe;
        };
        set('authorization', r.authorization);
        set('content-type', r.contentType);
        set('accept-encoding', r.acceptEncoding);
        set('if-none-match', r.ifNoneMatch);
        set('idempotency-key', r.idempotencyKey);
        const options: InjectOptions = { method: r.method as InjectOptions['method'], url: r.url, headers };
        if (r.body !== undefined && r.method !== 'GET' && r.method !== 'HEAD') options.payload = r.body;
        const res = await t.app.inject(options);
        expect(res.statusCode).toBeLessThan(500);
        if (res.statusCode >= 400 && r.method !== 'HEAD') {
          const problem = problemSchema.safeParse(res.json());
          expect(problem.success, res.body).toBe(true);
          expect(problem.data?.status).toBe(res.statusCode);
        }
      }),
      { numRuns: 1500 },
    );
    // 1,500 requests: a busy machine or a PostgreSQL store takes longer than the default five seconds.
  }, 120_000);
});
