import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { paths } from '../../contract/paths.js';
import { problemSchema } from '../../contract/problem.js';
import { buildTestApp, tokens, type TestApp } from '../test-support/test-app.js';

const support = { accountID: 'acme', applicationID: 'support', providerID: 'pbx' };
const sales = { accountID: 'acme', applicationID: 'sales', providerID: 'pbx' };
const globex = { accountID: 'globex', applicationID: 'support', providerID: 'pbx' };

let t: TestApp;
beforeEach(async () => {
  t = await buildTestApp({ rateLimitPerMinute: 5 });
  for (const phone of t.phones.values())
    phone.calls = [{ callID: 'c1', providerCallID: 'p1', isOutbound: false, isMissedCall: false, remoteNumber: '123', startedAt: 0 }];
  await t.app.providers.syncAll();
});
afterEach(async () => {
  await t.app.close();
});

const get = (url: string, authorization?: string) =>
  t.app.inject({ method: 'GET', url, headers: authorization === undefined ? {} : { authorization } });

describe('authentication', () => {
  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['another scheme', `Basic ${tokens.acmeAll}`],
    ['no token', 'Bearer'],
    ['two tokens', `Bearer ${tokens.acmeAll} ${tokens.globex}`],
    ['unknown token', 'Bearer not-a-real-token-at-all'],
    ['a token with one character changed', `Bearer ${tokens.acmeAll.slice(0, -1)}X`],
  ])('answers 401 with WWW-Authenticate for a %s header', async (_label, header) => {
    const res = await get(paths.listCalls(support), header);
    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(problemSchema.parse(res.json()).code).toBe('unauthorized');
  });

  it('accepts the scheme in any case and tokens stored as SHA-256 or plain', async () => {
    expect((await get(paths.listCalls(support), `bearer ${tokens.acmeAll}`)).statusCode).toBe(200);
    expect((await get(paths.listCalls(support), `BEARER ${tokens.acmeSupportRead}`)).statusCode).toBe(200);
  });

  it('never echoes the token in a problem', async () => {
    const res = await get(paths.listCalls(support), 'Bearer wrong-token-0123456789');
    expect(res.body).not.toContain('wrong-token');
  });
});

describe('failed sign-ins', () => {
  const rebuild = async (overrides: Parameters<typeof buildTestApp>[0], options: Parameters<typeof buildTestApp>[1] = {}) => {
    await t.app.close();
    t = await buildTestApp(overrides, options);
  };

  it('throttles requests without a valid token per source address, never valid tokens from it', async () => {
    await rebuild({ limits: { failedAuthPerMinute: 3 } });
    const from = (remoteAddress: string, authorization?: string) =>
      t.app.inject({ method: 'GET', url: paths.listCalls(support), remoteAddress, headers: authorization ? { authorization } : {} });
    for (let i = 0; i < 3; i += 1) expect((await from('198.51.100.7', 'Bearer guess-0123456789abcdef')).statusCode).toBe(401);
    const throttled = await from('198.51.100.7', 'Bearer guess-0123456789abcdef');
    expect(throttled.statusCode).toBe(429);
    expect(throttled.headers['retry-after']).toBe('20');
    expect(problemSchema.parse(throttled.json())).toMatchObject({ code: 'rate_limited', detail: expect.stringMatching(/without a valid token came from your address/) });
    expect((await from('198.51.100.7')).statusCode).toBe(429);

    expect((await from('198.51.100.7', `Bearer ${tokens.acmeAll}`)).statusCode).toBe(200);
    expect((await from('203.0.113.9', 'Bearer guess-0123456789abcdef')).statusCode).toBe(401);
    t.clock.advance(20_000);
    expect((await from('198.51.100.7', 'Bearer guess-0123456789abcdef')).statusCode).toBe(401);
  });

  it('writes nothing at info for a flood of 401s, and never their URL at debug', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    await rebuild({ limits: { failedAuthPerMinute: 5 } }, { logger: { level: 'info', stream } });
    const longURL = `${paths.listCalls(support)}?${'q'.repeat(8000)}=secret-looking`;
    for (let i = 0; i < 50; i += 1) await t.app.inject({ method: 'GET', url: longURL, headers: { authorization: 'Bearer nope-0123456789abcdef' } });
    expect(lines.filter((line) => !line.includes('Server listening'))).toEqual([]);

    await rebuild({}, { logger: { level: 'debug', stream } });
    await t.app.inject({ method: 'GET', url: longURL, headers: { authorization: 'Bearer nope-0123456789abcdef' } });
    const requestLines = lines.filter((line) => line.includes('"msg":"request"'));
    expect(requestLines).toHaveLength(1);
    expect(requestLines[0]).not.toContain('secret-looking');
    expect(requestLines[0]!.length).toBeLessThan(500);
  });
});

describe('permissions and scope', () => {
  it('answers 403 to a valid token without the permission', async () => {
    const write = await t.as(tokens.acmeSupportRead, {
      method: 'POST',
      url: paths.makeCall(support),
      headers: { 'content-type': 'application/json' },
      payload: { providerSubscriberID: 'a', remoteNumber: '123' },
    });
    expect(write.statusCode).toBe(403);
    expect(write.json().code).toBe('forbidden');
    const read = await get(paths.listCalls(sales), `Bearer ${tokens.acmeSalesWrite}`);
    expect(read.statusCode).toBe(403);
  });

  it('answers the same 404 for what does not exist and what the token may not see', async () => {
    const answers = await Promise.all([
      get(paths.listCalls(globex), `Bearer ${tokens.acmeAll}`),
      get(paths.listCalls({ ...support, accountID: 'nope' }), `Bearer ${tokens.acmeAll}`),
      get(paths.listCalls({ ...support, applicationID: 'nope' }), `Bearer ${tokens.acmeAll}`),
      get(paths.listCalls({ ...support, providerID: 'nope' }), `Bearer ${tokens.acmeAll}`),
      get(paths.listCalls(sales), `Bearer ${tokens.acmeSupportRead}`),
      get(paths.listCalls(support), `Bearer ${tokens.globex}`),
    ]);
    for (const res of answers) {
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('not_found');
      expect(res.json().detail).toMatch(/is visible to this token/);
    }
  });

  it('lets a token see only its own applications', async () => {
    expect((await get(paths.listCalls(support), `Bearer ${tokens.acmeSupportRead}`)).statusCode).toBe(200);
    expect((await get(paths.listCalls(globex), `Bearer ${tokens.globex}`)).json().calls[0].providerName).toBe('Globex PBX');
  });
});

describe('rate limit', () => {
  it('answers 429 with Retry-After past the per-token limit, and recovers', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) statuses.push((await get(paths.listCalls(support), `Bearer ${tokens.acmeAll}`)).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    const limited = await get(paths.me(), `Bearer ${tokens.acmeAll}`);
    expect(limited.json().code).toBe('rate_limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect((await get(paths.listCalls(globex), `Bearer ${tokens.globex}`)).statusCode).toBe(200);
    t.clock.advance(12_000);
    expect((await get(paths.listCalls(support), `Bearer ${tokens.acmeAll}`)).statusCode).toBe(200);
  });
});
