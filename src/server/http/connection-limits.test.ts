/**
 * One tenant cannot hold the service's connections: held sockets time out, a token's requests in
 * flight are capped (answered 429 at once), and connections past the caps are answered 503.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { paths } from '../../contract/paths.js';
import { problemSchema } from '../../contract/problem.js';
import type { ServiceConfigInput } from '../config/config-schema.js';
import { openRaw, rawExchange, type RawAnswer, type RawConnection } from '../test-support/raw-http.js';
import { subscriber } from '../test-support/scripted-phone-system.js';
import { buildTestApp, tokens, type TestApp } from '../test-support/test-app.js';

const scope = { accountID: 'acme', applicationID: 'support', providerID: 'pbx' };
const globex = { accountID: 'globex', applicationID: 'support', providerID: 'pbx' };

let t: TestApp;
let port: number;
const start = async (limits: ServiceConfigInput['limits']) => {
  t = await buildTestApp({ limits, rateLimitPerMinute: 100_000 });
  await t.app.providers.syncAll();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as { port: number }).port;
};
afterEach(async () => {
  await t.app.close();
});

const get = (url: string, token: string) => `GET ${url} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\n\r\n`;

/** A POST that declares a 16,000-byte body and never sends it. */
const heldPost = (token: string) =>
  `POST ${paths.makeCall(scope)} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 16000\r\n\r\n{`;

const codeOf = (answer: RawAnswer) => problemSchema.parse(JSON.parse(answer.body)).code;

describe('held sockets', () => {
  it("caps a read-only token's unfinished requests at once, and times the rest out, while other tenants are served", async () => {
    await start({ requestsPerToken: 4, requestTimeoutMs: 1500, headersTimeoutMs: 1000 });
    const held: RawConnection[] = [];
    for (let i = 0; i < 12; i += 1) {
      held.push(await openRaw(port, heldPost(tokens.acmeSupportRead)));
      await new Promise((done) => setTimeout(done, 10));
    }
    const early = await Promise.all(held.slice(4).map((connection) => connection.answer(1000)));
    expect(early.map((answer) => answer.status)).toEqual(Array(8).fill(429));
    expect(early.map(codeOf)).toEqual(Array(8).fill('too_many_concurrent_requests'));
    expect(early.every((answer) => answer.headers['retry-after'] === '1' && answer.closedAfterMs !== undefined)).toBe(true);

    // The four it holds cost nobody else anything: another tenant is answered at once.
    const neighbour = await rawExchange(port, get(paths.listCalls(globex), tokens.globex).replace('\r\n\r\n', '\r\nConnection: close\r\n\r\n'));
    expect(neighbour.status).toBe(200);

    const late = await Promise.all(held.slice(0, 4).map((connection) => connection.answer(5000)));
    expect(late.map((answer) => answer.status)).toEqual(Array(4).fill(408));
    expect(late.map(codeOf)).toEqual(Array(4).fill('request_timeout'));
    expect(Math.max(...late.map((answer) => answer.closedAfterMs ?? Infinity))).toBeLessThan(4000);

    // Their slots came back with the closed connections.
    const again = await rawExchange(port, heldPost(tokens.acmeSupportRead), 5000);
    expect(again.status).toBe(408);
  });

  it('closes a connection that never finishes its headers', async () => {
    await start({ requestTimeoutMs: 2000, headersTimeoutMs: 1000 });
    const silent = await (await openRaw(port, 'GET /v1/me HTTP/1.1\r\nHost: x\r\n')).answer(4000);
    expect(silent.status).toBe(408);
    expect(silent.closedAfterMs).toBeLessThan(3000);
  });

  it('lets a slow but honest client finish within the request timeout', async () => {
    await start({ requestTimeoutMs: 4000, headersTimeoutMs: 3000 });
    t.phone('acme/support/pbx').subscribers = [subscriber({ providerSubscriberID: 'agt-1' })];
    const body = JSON.stringify({ providerSubscriberID: 'agt-1', remoteNumber: '15555550123' });
    const head = `POST ${paths.makeCall(scope)} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${tokens.acmeAll}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`;
    const connection = await openRaw(port);
    for (const piece of [head.slice(0, 40), head.slice(40), body.slice(0, 10), body.slice(10)]) {
      connection.write(piece);
      await new Promise((done) => setTimeout(done, 400));
    }
    expect((await connection.answer(3000)).status).toBe(204);
    expect(t.phone('acme/support/pbx').placed).toHaveLength(1);
  });

  it('closes an idle keep-alive connection after the keep-alive timeout', async () => {
    await start({ keepAliveTimeoutMs: 1000 });
    const connection = await openRaw(port, get(paths.me(), tokens.acmeAll));
    const answer = await connection.answer(4000);
    expect(answer.status).toBe(200);
    expect(answer.closedAfterMs).toBeGreaterThanOrEqual(900);
    expect(answer.closedAfterMs).toBeLessThan(3500);
  });
});

describe('connection caps', () => {
  it('answers a connection past the total cap 503 with Retry-After, and serves again once one closes', async () => {
    await start({ connections: 3 });
    const idle = await Promise.all([1, 2, 3].map(() => openRaw(port)));
    const refused = await rawExchange(port, get(paths.me(), tokens.globex));
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toBe('1');
    expect(codeOf(refused)).toBe('service_busy');
    idle[0]?.close();
    await new Promise((done) => setTimeout(done, 100));
    expect((await rawExchange(port, get(paths.me(), tokens.globex).replace('\r\n\r\n', '\r\nConnection: close\r\n\r\n'))).status).toBe(200);
    for (const connection of idle) connection.close();
  });

  it('caps the connections of one source address', async () => {
    await start({ connectionsPerAddress: 2 });
    const idle = await Promise.all([1, 2].map(() => openRaw(port)));
    const refused = await rawExchange(port, get(paths.me(), tokens.globex));
    expect(refused.status).toBe(503);
    expect(JSON.parse(refused.body).detail).toMatch(/Your address holds its limit of 2 open connections/);
    for (const connection of idle) connection.close();
  });
});
