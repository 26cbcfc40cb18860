/** Streams are counted apart from requests: their own cap per token and in total, given back when a stream closes. */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { problemSchema } from '../../contract/problem.js';
import { ConcurrencySlots } from '../auth/concurrency-slots.js';
import { RateLimiter } from '../auth/rate-limiter.js';
import { TokenIndex } from '../auth/token-index.js';
import { ManualClock } from '../clock.js';
import { serviceConfigSchema } from '../config/config-schema.js';
import { openRaw, rawExchange, type RawConnection } from '../test-support/raw-http.js';
import { testConfig, tokens } from '../test-support/test-app.js';
import { authPlugin } from './auth-plugin.js';
import { problemsPlugin } from './problems-plugin.js';
import { streamSlotsPlugin } from './stream-slots.js';

let app: FastifyInstance;
let port: number;
beforeEach(async () => {
  app = Fastify({ forceCloseConnections: true });
  await app.register(problemsPlugin);
  await app.register(streamSlotsPlugin, { perToken: 2, total: 3 });
  await app.register(async (api) => {
    const clock = new ManualClock(0);
    await api.register(authPlugin, {
      tokens: TokenIndex.fromConfig(serviceConfigSchema.parse(testConfig())),
      limiter: new RateLimiter(10_000, clock),
      rateLimitPerMinute: 10_000,
      failedAuthPerMinute: 100,
      requestSlots: new ConcurrencySlots('requests', { perToken: 1, total: 100 }),
      clock,
    });
    api.get('/stream', { config: { stream: true } }, (request, reply) => {
      app.streamSlots.open(request, reply);
      reply.hijack();
      reply.raw.writeHead(200, { 'content-type': 'text/event-stream' });
      reply.raw.write(': open\n\n');
    });
    api.get('/plain', async () => ({ ok: true }));
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as { port: number }).port;
});
afterEach(async () => {
  await app.close();
});

const request = (path: string, token: string) => `GET ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\n\r\n`;
const openStream = async (token: string): Promise<RawConnection> => openRaw(port, request('/stream', token));

describe('stream slots', () => {
  it("caps a token's open streams with 429 too_many_streams, apart from its requests in flight", async () => {
    const streams = [await openStream(tokens.acmeAll), await openStream(tokens.acmeAll)];
    expect((await streams[0]!.answer(200)).status).toBe(200);
    expect((await streams[1]!.answer(200)).status).toBe(200);
    expect(app.streamSlots.inUse()).toBe(2);

    const third = await (await openStream(tokens.acmeAll)).answer(1000);
    expect(third.status).toBe(429);
    expect(problemSchema.parse(JSON.parse(third.body)).code).toBe('too_many_streams');
    expect(third.headers['retry-after']).toBe('1');

    // The token's one request slot is free: the streams do not hold it.
    expect((await rawExchange(port, request('/plain', tokens.acmeAll).replace('\r\n\r\n', '\r\nConnection: close\r\n\r\n'))).status).toBe(200);
    for (const stream of streams) stream.close();
  });

  it('gives the slot back when a stream closes', async () => {
    const first = await openStream(tokens.acmeAll);
    await first.answer(200);
    first.close();
    await new Promise((done) => setTimeout(done, 100));
    expect(app.streamSlots.inUse()).toBe(0);
  });

  it('answers 503 service_busy past the total, whoever asks', async () => {
    const open = [await openStream(tokens.acmeAll), await openStream(tokens.acmeAll), await openStream(tokens.globex)];
    await Promise.all(open.map((stream) => stream.answer(200)));
    const refused = await (await openStream(tokens.globex)).answer(1000);
    expect(refused.status).toBe(503);
    expect(problemSchema.parse(JSON.parse(refused.body)).code).toBe('service_busy');
    for (const stream of open) stream.close();
  });
});
