import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { RequestLogController } from './request-log-controller.js';

/** An app whose log lines (parsed JSON) are kept, at the given level. */
const appLoggingAt = async (level: string) => {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  const app = Fastify({ logger: { level, stream }, logController: new RequestLogController(50) });
  app.get('/calls/:id', async () => ({ ok: true }));
  app.get('/slow', async () => {
    await new Promise((resolve) => setTimeout(resolve, 80));
    return { ok: true };
  });
  app.get('/broken', async () => {
    throw new Error('boom');
  });
  return { app, lines: () => lines.filter((line) => typeof line.route === 'string') };
};

describe('request log', () => {
  it('writes nothing at info for a stream of successful polls', async () => {
    const { app, lines } = await appLoggingAt('info');
    for (let i = 0; i < 50; i += 1) await app.inject({ url: `/calls/${i}?secret=x` });
    expect(lines()).toEqual([]);
  });

  it('writes one line per request at debug, with the route pattern and never the query', async () => {
    const { app, lines } = await appLoggingAt('debug');
    await app.inject({ url: '/calls/42?token=should-not-appear' });
    expect(lines()).toEqual([expect.objectContaining({ level: 20, msg: 'request', method: 'GET', route: '/calls/:id', status: 200 })]);
    expect(JSON.stringify(lines())).not.toContain('should-not-appear');
  });

  it('writes slow requests at info and server errors at error', async () => {
    const { app, lines } = await appLoggingAt('info');
    await app.inject({ url: '/slow' });
    await app.inject({ url: '/broken' });
    const mine = lines().map((line) => [line.level, line.msg, line.route]);
    expect(mine).toEqual([
      [30, 'slow request', '/slow'],
      [50, 'request failed', '/broken'],
    ]);
  });
});
