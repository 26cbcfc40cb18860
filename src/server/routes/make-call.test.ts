import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { paths } from '../../contract/paths.js';
import { problemSchema, type ProblemCode } from '../../contract/problem.js';
import { subscriber } from '../test-support/scripted-phone-system.js';
import { buildTestApp, testConfig, tokens, type TestApp } from '../test-support/test-app.js';
import { createTestHistory } from '../test-support/test-history.js';

const scope = { accountID: 'acme', applicationID: 'support', providerID: 'pbx' };
const url = paths.makeCall(scope);
const valid = { providerSubscriberID: 'agt-1', remoteNumber: '15555550123' };

let t: TestApp;
beforeEach(async () => {
  t = await buildTestApp();
  t.phone('acme/support/pbx').subscribers = [
    subscriber({ providerSubscriberID: 'agt-1' }),
    subscriber({ providerSubscriberID: 'agt-off', extension: '105', registered: false }),
    subscriber({ providerSubscriberID: 'agt-gone', extension: '106', active: false }),
  ];
});
afterEach(async () => {
  await t.app.close();
});

const post = (body: unknown, headers: Record<string, string> = {}, token: string = tokens.acmeAll) =>
  t.as(token, {
    method: 'POST',
    url,
    headers: { 'content-type': 'application/json', ...headers },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });

const expectProblem = (res: Awaited<ReturnType<typeof post>>, status: number, code: ProblemCode) => {
  expect(res.statusCode).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  const problem = problemSchema.parse(res.json());
  expect(problem.code).toBe(code);
  expect(problem.status).toBe(status);
  return problem;
};

describe('POST make a call', () => {
  it('answers 204 with an empty body once the provider accepted the call', async () => {
    const res = await post({ ...valid, providerSubscriberExtension: '104', providerSubscriberNumber: '15555550104' });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect(t.phone('acme/support/pbx').placed).toEqual([
      { ...valid, providerSubscriberExtension: '104', providerSubscriberNumber: '15555550104' },
    ]);
  });

  it('accepts a content type with parameters', async () => {
    expect((await post(valid, { 'content-type': 'application/json; charset=utf-8' })).statusCode).toBe(204);
  });

  it.each([
    [{ ...valid, remoteNumber: '+1 (555) 555-0123' }, 'remoteNumber'],
    [{ ...valid, remoteNumber: '12' }, 'remoteNumber'],
    [{ ...valid, remoteNumber: '1234567890123456' }, 'remoteNumber'],
    [{ ...valid, remoteNumber: '１２３４５' }, 'remoteNumber'],
    [{ ...valid, remoteNumber: 15555550123 }, 'remoteNumber'],
    [{ ...valid, providerSubscriberExtension: '' }, 'providerSubscriberExtension'],
    [{ ...valid, providerSubscriberExtension: '12345678901' }, 'providerSubscriberExtension'],
    [{ ...valid, providerSubscriberNumber: '555-0104' }, 'providerSubscriberNumber'],
    [{ remoteNumber: '15555550123' }, 'providerSubscriberID'],
    [{ ...valid, providerSubscriberID: 42 }, 'providerSubscriberID'],
    [{ ...valid, callerID: '1' }, 'callerID'],
  ])('refuses %j with validation_failed naming %s, and places no call', async (body, field) => {
    const problem = expectProblem(await post(body), 400, 'validation_failed');
    expect(problem.errors?.map((e) => e.field)).toContain(field);
    expect(problem.detail).toContain(field);
    expect(t.phone('acme/support/pbx').placed).toHaveLength(0);
  });

  it('says a missing field is required and a JSON number is not a string', async () => {
    const missing = expectProblem(await post({ remoteNumber: '15555550123' }), 400, 'validation_failed');
    expect(missing.errors).toContainEqual({ field: 'providerSubscriberID', message: 'is required' });
    const number = expectProblem(await post({ ...valid, remoteNumber: 15555550123 }), 400, 'validation_failed');
    expect(number.errors?.[0]?.message).toMatch(/string/);
  });

  it.each([['[]'], ['"call me"'], ['null'], ['42']])('refuses a body that is not an object: %s', async (body) => {
    const problem = expectProblem(await post(body), 400, 'validation_failed');
    expect(problem.detail).toMatch(/JSON object/);
  });

  it('refuses malformed JSON and an empty body with invalid_request', async () => {
    expectProblem(await post('{"providerSubscriberID":'), 400, 'invalid_request');
    expectProblem(await post(''), 400, 'invalid_request');
  });

  it('refuses other media types with 415', async () => {
    expectProblem(await post(valid, { 'content-type': 'text/plain' }), 415, 'unsupported_media_type');
    expectProblem(await post('a=b', { 'content-type': 'application/x-www-form-urlencoded' }), 415, 'unsupported_media_type');
  });

  it('refuses a body over 16 KiB with 413', async () => {
    expectProblem(await post({ ...valid, padding: 'x'.repeat(17 * 1024) }), 413, 'payload_too_large');
  });

  it.each([
    ['agt-nobody', 'subscriber_not_found'],
    ['agt-off', 'subscriber_not_registered'],
    ['agt-gone', 'subscriber_inactive'],
  ] as const)('answers 409 for %s: %s', async (id, code) => {
    const problem = expectProblem(await post({ ...valid, providerSubscriberID: id }), 409, code);
    expect(problem.detail.length).toBeGreaterThan(10);
  });

  it.each([
    ['unavailable', 503, 'provider_unavailable'],
    ['error', 502, 'provider_error'],
    ['timeout', 504, 'provider_timeout'],
  ] as const)('maps a provider that is %s to %i %s', async (failure, status, code) => {
    t.phone('acme/support/pbx').failure = failure;
    const res = await post(valid);
    expectProblem(res, status, code);
    if (status === 503) expect(res.headers['retry-after']).toBeDefined();
  });
});

describe('Idempotency-Key', () => {
  it('replays the first answer to a retry and never places a second call', async () => {
    const first = await post(valid, { 'idempotency-key': 'call-7f3a' });
    const retry = await post(valid, { 'idempotency-key': 'call-7f3a' });
    expect(first.statusCode).toBe(204);
    expect(retry.statusCode).toBe(204);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(t.phone('acme/support/pbx').placed).toHaveLength(1);
  });

  it('lets concurrent retries share the attempt in flight', async () => {
    t.phone('acme/support/pbx').placeDelayMs = 30;
    const answers = await Promise.all([1, 2, 3].map(() => post(valid, { 'idempotency-key': 'same' })));
    expect(answers.map((r) => r.statusCode)).toEqual([204, 204, 204]);
    expect(t.phone('acme/support/pbx').placed).toHaveLength(1);
  });

  it('refuses the same key with a different body', async () => {
    await post(valid, { 'idempotency-key': 'k1' });
    expectProblem(await post({ ...valid, remoteNumber: '15555550999' }, { 'idempotency-key': 'k1' }), 409, 'idempotency_key_reused');
    expect(t.phone('acme/support/pbx').placed).toHaveLength(1);
  });

  it('lets a retry try again after a failure that placed no call', async () => {
    const phone = t.phone('acme/support/pbx');
    phone.failure = 'unavailable';
    expect((await post(valid, { 'idempotency-key': 'k2' })).statusCode).toBe(503);
    phone.failure = null;
    expect((await post(valid, { 'idempotency-key': 'k2' })).statusCode).toBe(204);
    expect(phone.placed).toHaveLength(1);
  });

  it('replays a timeout to a retry: the provider may have placed the call, so it must not ring twice', async () => {
    const phone = t.phone('acme/support/pbx');
    phone.failure = 'timeout';
    expect((await post(valid, { 'idempotency-key': 'k-timeout' })).statusCode).toBe(504);
    phone.failure = null;
    const retry = await post(valid, { 'idempotency-key': 'k-timeout' });
    expect(retry.statusCode).toBe(504);
    expect(retry.json().code).toBe('provider_timeout');
    expect(phone.placed).toHaveLength(0);
    expect((await post(valid, { 'idempotency-key': 'k-new-intention' })).statusCode).toBe(204);
  });

  it('forgets a key after 24 hours', async () => {
    await post(valid, { 'idempotency-key': 'k3' });
    t.clock.advance(24 * 3600_000 + 1);
    const later = await post(valid, { 'idempotency-key': 'k3' });
    expect(later.headers['idempotent-replayed']).toBeUndefined();
    expect(t.phone('acme/support/pbx').placed).toHaveLength(2);
  });

  it('keeps keys apart between accounts', async () => {
    t.phone('globex/support/pbx').subscribers = [subscriber({ providerSubscriberID: 'agt-1' })];
    await post(valid, { 'idempotency-key': 'shared' });
    const globex = await t.as(tokens.globex, {
      method: 'POST',
      url: paths.makeCall({ ...scope, accountID: 'globex' }),
      headers: { 'content-type': 'application/json', 'idempotency-key': 'shared' },
      payload: valid,
    });
    expect(globex.statusCode).toBe(204);
    expect(globex.headers['idempotent-replayed']).toBeUndefined();
  });

  it('marks a replayed 504 with Idempotent-Replayed: true', async () => {
    t.phone('acme/support/pbx').failure = 'timeout';
    const first = await post(valid, { 'idempotency-key': 'k-504' });
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const retry = await post(valid, { 'idempotency-key': 'k-504' });
    expectProblem(retry, 504, 'provider_timeout');
    expect(retry.headers['idempotent-replayed']).toBe('true');
  });

  it("keeps keys apart between applications: a key used where a token cannot see is none of its business", async () => {
    t.phone('acme/sales/pbx').subscribers = [subscriber({ providerSubscriberID: 'agt-9' })];
    const inSales = await t.as(tokens.acmeSalesWrite, {
      method: 'POST',
      url: paths.makeCall({ ...scope, applicationID: 'sales' }),
      headers: { 'content-type': 'application/json', 'idempotency-key': 'crm-4711' },
      payload: { providerSubscriberID: 'agt-9', remoteNumber: '15555550999' },
    });
    expect(inSales.statusCode).toBe(204);
    const inSupport = await post(valid, { 'idempotency-key': 'crm-4711' }, tokens.acmeAgent);
    expect(inSupport.statusCode).toBe(204);
    expect(inSupport.headers['idempotent-replayed']).toBeUndefined();
    expect(t.phone('acme/support/pbx').placed).toEqual([valid]);
  });

  it('keeps its promise across a restart of the service', async () => {
    const history = await createTestHistory();
    try {
      const before = await buildTestApp({}, { history });
      before.phone('acme/support/pbx').subscribers = [subscriber({ providerSubscriberID: 'agt-1' })];
      const request = { method: 'POST' as const, url, headers: { 'content-type': 'application/json', 'idempotency-key': 'k-restart' }, payload: valid };
      expect((await before.as(tokens.acmeAll, request)).statusCode).toBe(204);
      await before.app.close();
      const after = await buildTestApp({}, { history });
      after.phone('acme/support/pbx').subscribers = [subscriber({ providerSubscriberID: 'agt-1' })];
      const retry = await after.as(tokens.acmeAll, request);
      await after.app.close();
      expect(retry.statusCode).toBe(204);
      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(after.phone('acme/support/pbx').placed).toHaveLength(0);
    } finally {
      await history.dispose();
    }
  });

  it('refuses a malformed key', async () => {
    const problem = expectProblem(await post(valid, { 'idempotency-key': 'has space' }), 400, 'invalid_request');
    expect(problem.errors?.[0]?.field).toBe('Idempotency-Key');
  });
});

describe("an agent's token (bound to its subscriber)", () => {
  beforeEach(() => {
    t.phone('acme/support/pbx').subscribers.push(subscriber({ providerSubscriberID: 'agt-2', extension: '107' }));
  });

  it('places calls as its own subscriber', async () => {
    expect((await post(valid, {}, tokens.acmeAgent)).statusCode).toBe(204);
    expect(t.phone('acme/support/pbx').placed).toEqual([valid]);
  });

  it.each(['agt-2', 'agt-nobody'])('refuses a call as %s with 403 naming providerSubscriberID, and places none', async (id) => {
    const problem = expectProblem(await post({ ...valid, providerSubscriberID: id }, {}, tokens.acmeAgent), 403, 'subscriber_not_allowed');
    expect(problem.type).toBe('urn:callboard:problem:subscriber_not_allowed');
    expect(problem.errors).toEqual([{ field: 'providerSubscriberID', message: 'must be "agt-1" for this token' }]);
    expect(problem.detail).toBe(`This token places calls only as subscriber "agt-1": providerSubscriberID "${id}" is not allowed.`);
    expect(t.phone('acme/support/pbx').placed).toHaveLength(0);
  });

  it("cannot have another token's call replayed through a shared Idempotency-Key", async () => {
    const asAgent2 = { ...valid, providerSubscriberID: 'agt-2' };
    expect((await post(asAgent2, { 'idempotency-key': 'shared-key' })).statusCode).toBe(204);
    const replay = await post(asAgent2, { 'idempotency-key': 'shared-key' }, tokens.acmeAgent);
    expectProblem(replay, 403, 'subscriber_not_allowed');
    expect(replay.headers['idempotent-replayed']).toBeUndefined();
    expect(t.phone('acme/support/pbx').placed).toHaveLength(1);
  });

  it('leaves no trace under the key it was refused with', async () => {
    const asAgent2 = { ...valid, providerSubscriberID: 'agt-2' };
    expectProblem(await post(asAgent2, { 'idempotency-key': 'k-refused' }, tokens.acmeAgent), 403, 'subscriber_not_allowed');
    const supervisor = await post(asAgent2, { 'idempotency-key': 'k-refused' });
    expect(supervisor.statusCode).toBe(204);
    expect(supervisor.headers['idempotent-replayed']).toBeUndefined();
  });

  it("leaves supervisors' tokens free to place calls as any subscriber", async () => {
    expect((await post({ ...valid, providerSubscriberID: 'agt-2' })).statusCode).toBe(204);
    expect((await post(valid)).statusCode).toBe(204);
    expect(t.phone('acme/support/pbx').placed.map((call) => call.providerSubscriberID)).toEqual(['agt-2', 'agt-1']);
  });

  it('names every allowed subscriber when a token has several', async () => {
    await t.app.close();
    const config = testConfig();
    Object.assign(config.accounts[0]!.tokens[3]!, { subscriberIDs: ['agt-1', 'agt-3'] });
    t = await buildTestApp(config);
    const problem = expectProblem(await post({ ...valid, providerSubscriberID: 'agt-2' }, {}, tokens.acmeAgent), 403, 'subscriber_not_allowed');
    expect(problem.errors?.[0]?.message).toBe('must be one of "agt-1", "agt-3" for this token');
  });
});

describe('wrong methods', () => {
  it('answers GET on the plural path with 405, Allow and the right path', async () => {
    const res = await t.as(tokens.acmeAll, { method: 'GET', url });
    const problem = expectProblem(res, 405, 'method_not_allowed');
    expect(res.headers.allow).toBe('POST');
    expect(problem.detail).toContain('/v1/accounts/acme/applications/support/provider/pbx/calls');
  });

  it('answers POST on the singular path with 405, Allow and the right path', async () => {
    const res = await t.as(tokens.acmeAll, { method: 'POST', url: paths.listCalls(scope), payload: valid });
    const problem = expectProblem(res, 405, 'method_not_allowed');
    expect(res.headers.allow).toBe('GET, HEAD');
    expect(problem.detail).toContain(url);
  });

  it('answers DELETE on either path with 405', async () => {
    expectProblem(await t.as(tokens.acmeAll, { method: 'DELETE', url }), 405, 'method_not_allowed');
    expectProblem(await t.as(tokens.acmeAll, { method: 'DELETE', url: paths.listCalls(scope) }), 405, 'method_not_allowed');
  });
});

describe('one tenant cannot break another tenant\'s Idempotency-Key', () => {
  it("answers the flooding application 429 at its quota, and the other account's retry still replays: one call", async () => {
    await t.app.close();
    t = await buildTestApp({ limits: { idempotencyKeysPerApplication: 5 } });
    t.phone('globex/support/pbx').subscribers = [subscriber({ providerSubscriberID: 'agt-1' })];
    const globexURL = paths.makeCall({ ...scope, accountID: 'globex' });
    const asGlobex = () =>
      t.as(tokens.globex, {
        method: 'POST',
        url: globexURL,
        headers: { 'content-type': 'application/json', 'idempotency-key': 'globex-call-1' },
        payload: valid,
      });
    expect((await asGlobex()).statusCode).toBe(204);

    // Acme's own provider times out: every key it sends is kept (the outcome is unknown), until its quota.
    t.phone('acme/support/pbx').subscribers = [subscriber({ providerSubscriberID: 'agt-1' })];
    t.phone('acme/support/pbx').failure = 'timeout';
    for (let i = 0; i < 5; i += 1) expectProblem(await post(valid, { 'idempotency-key': `flood-${i}` }), 504, 'provider_timeout');
    const refused = await post(valid, { 'idempotency-key': 'flood-5' });
    const problem = expectProblem(refused, 429, 'too_many_idempotency_keys');
    expect(problem.detail).toMatch(/holds 5 Idempotency-Keys from the last 24 hours, its limit/);
    expect(Number(refused.headers['retry-after'])).toBe(86_400);

    const retry = await asGlobex();
    expect(retry.statusCode).toBe(204);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(t.phone('globex/support/pbx').placed).toHaveLength(1);
  });
});
