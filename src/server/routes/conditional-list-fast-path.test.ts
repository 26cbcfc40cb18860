import { Agent, request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { paths, SNAPSHOT_AGE_HEADER } from '../../contract/paths.js';
import { providerCall } from '../test-support/provider-call.js';
import { buildTestApp, T0, tokens, type TestApp } from '../test-support/test-app.js';

let t: TestApp;
let base: string;
afterEach(async () => {
  await t?.app.close();
});

const pbx = paths.listCalls({ accountID: 'acme', applicationID: 'support', providerID: 'pbx' });
/** /metrics opens only to a token of its own. */
const METRICS_TOKEN = 'metrics-scraper-token-0123456789';

const start = async (overrides: Parameters<typeof buildTestApp>[0] = {}) => {
  t = await buildTestApp({ metrics: { token: METRICS_TOKEN }, ...overrides });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  t.phone('acme/support/pbx').calls = [providerCall('c1', T0 - 60_000)];
  await t.app.providers.syncAll();
};

const get = (path: string, headers: Record<string, string>) => fetch(`${base}${path}`, { headers });

/** The list's answer over HTTP, with its ETag. */
const current = async (token: string = tokens.acmeAll) => {
  const answer = await get(pbx, { authorization: `Bearer ${token}` });
  expect(answer.status).toBe(200);
  return answer.headers.get('etag') ?? '';
};

/** Headers of the connection, not of the answer: they differ between a socket and inject(). */
const TRANSPORT = new Set(['date', 'connection', 'keep-alive']);
const headersOf = (response: Response) => Object.fromEntries([...response.headers].filter(([name]) => !TRANSPORT.has(name)));

/** The framework's answer to the same request, through inject(), which the fast path never sees. */
const framework = (headers: Record<string, string>) => t.app.inject({ method: 'GET', url: pbx, headers });

const requestsCounted = async (status: number) => {
  const text = await (await get('/metrics', { authorization: `Bearer ${METRICS_TOKEN}` })).text();
  const line = text
    .split('\n')
    .find(
      (l) =>
        l.startsWith('callboard_http_requests_total{') &&
        l.includes(`status="${status}"`) &&
        l.includes('/provider/:providerID/calls'),
    );
  return Number(line?.split(' ').pop() ?? 0);
};

describe('the conditional list before the framework', () => {
  it('answers a current copy with the same 304 the route gives, counted in the metrics', async () => {
    await start();
    const etag = await current();
    const headers = { authorization: `Bearer ${tokens.acmeAll}`, 'if-none-match': etag };
    const fast = await get(pbx, headers);
    const routed = await framework(headers);
    expect(fast.status).toBe(304);
    expect(routed.statusCode).toBe(304);
    // The same headers with the same values; the snapshot's age is read at each answer.
    const routedHeaders = Object.fromEntries(Object.entries(routed.headers).filter(([name]) => !TRANSPORT.has(name)));
    expect(headersOf(fast)).toEqual({ ...routedHeaders, [SNAPSHOT_AGE_HEADER]: expect.stringMatching(/^\d+$/) });
    // What guides the stored copy, nothing else (RFC 9110, 15.4.5): the 200 it updates has the security headers.
    expect(Object.keys(headersOf(fast)).sort()).toEqual(['cache-control', 'etag', SNAPSHOT_AGE_HEADER, 'vary'].sort());
    const full = await get(pbx, { authorization: `Bearer ${tokens.acmeAll}` });
    expect(full.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(full.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await requestsCounted(304)).toBeGreaterThanOrEqual(1);
  });

  it('leaves every other answer to the routes: wrong token, another tenant, no read permission, a changed list', async () => {
    await start();
    const etag = await current();
    const bad = await get(pbx, { authorization: 'Bearer not-a-token-0123456789', 'if-none-match': etag });
    expect(bad.status).toBe(401);
    expect(bad.headers.get('content-type')).toContain('application/problem+json');
    // Globex may not see Acme's provider, whatever ETag it sends.
    expect((await get(pbx, { authorization: `Bearer ${tokens.globex}`, 'if-none-match': etag })).status).toBe(404);
    expect((await get(pbx, { authorization: `Bearer ${tokens.acmeSalesWrite}`, 'if-none-match': etag })).status).toBe(403);

    t.phone('acme/support/pbx').calls = [providerCall('c1', T0 - 60_000), providerCall('c2', T0)];
    await t.app.providers.syncAll();
    const changed = await get(pbx, { authorization: `Bearer ${tokens.acmeAll}`, 'if-none-match': etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
  });

  it('lets the CORS plugin answer a browser from another origin', async () => {
    await start({ corsOrigins: ['https://board.example.com'] });
    const etag = await current();
    const answer = await get(pbx, {
      authorization: `Bearer ${tokens.acmeAll}`,
      'if-none-match': etag,
      origin: 'https://board.example.com',
    });
    expect(answer.status).toBe(304);
    expect(answer.headers.get('access-control-allow-origin')).toBe('https://board.example.com');
  });

  it('looks up each token sent on one keep-alive connection, never answering it as the token before', async () => {
    await start();
    const etag = await current();
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    /** A GET on the agent's one connection: its status, and whether it went on the socket of the request before. */
    const onSharedConnection = (token: string) =>
      new Promise<{ status: number; reused: boolean }>((resolve, reject) => {
        const sent = request(
          `${base}${pbx}`,
          { agent, headers: { authorization: `Bearer ${token}`, 'if-none-match': etag } },
          (answer) => {
            answer.resume();
            answer.on('end', () => resolve({ status: answer.statusCode ?? 0, reused: sent.reusedSocket }));
          },
        );
        sent.on('error', reject);
        sent.end();
      });
    try {
      expect(await onSharedConnection(tokens.acmeAll)).toEqual({ status: 304, reused: false });
      expect(await onSharedConnection(tokens.acmeAll)).toEqual({ status: 304, reused: true });
      // Globex may not see Acme's provider, on a connection Acme's token used or any other.
      expect(await onSharedConnection(tokens.globex)).toEqual({ status: 404, reused: true });
      expect(await onSharedConnection('not-a-token-0123456789')).toEqual({ status: 401, reused: true });
      expect(await onSharedConnection(tokens.acmeSalesWrite)).toEqual({ status: 403, reused: true });
      expect(await onSharedConnection(tokens.acmeAll)).toEqual({ status: 304, reused: true });
    } finally {
      agent.destroy();
    }
  });

  it('draws on the same rate limit as the routes, which answer 429 once it is spent', async () => {
    await start({ rateLimitPerMinute: 3 });
    const etag = await current();
    const headers = { authorization: `Bearer ${tokens.acmeAll}`, 'if-none-match': etag };
    expect((await get(pbx, headers)).status).toBe(304);
    expect((await get(pbx, headers)).status).toBe(304);
    const limited = await get(pbx, headers);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
  });
});
