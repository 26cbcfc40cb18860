import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ApiClient } from './api-client.js';

const client = new ApiClient({ kind: 'token', baseURL: '', token: 't', remember: false });
const schema = z.object({ n: z.number() });

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('ApiClient.getConditional', () => {
  it('tells when the whole body is in, before parsing it', async () => {
    const encoder = new TextEncoder();
    let send!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({ start: (controller) => void (send = controller) });
    vi.stubGlobal('fetch', vi.fn(async () => new Response(body, { status: 200, headers: { etag: '"v2"' } })));
    const onBody = vi.fn();
    const parse = vi.spyOn(JSON, 'parse');
    const answer = client.getConditional('/calls', schema, '"v1"', undefined, onBody);
    send.enqueue(encoder.encode('{"n":'));
    await new Promise((resolve) => setTimeout(resolve, 0));
    // Headers and half a body: not in yet.
    expect(onBody).not.toHaveBeenCalled();
    send.enqueue(encoder.encode('1}'));
    send.close();
    expect(await answer).toMatchObject({ notModified: false, data: { n: 1 }, etag: '"v2"' });
    expect(onBody).toHaveBeenCalledTimes(1);
    expect(onBody.mock.invocationCallOrder[0]).toBeLessThan(parse.mock.invocationCallOrder.at(-1) ?? 0);
  });

  it('does not tell of a 304, and says plainly when a body is not the API', async () => {
    const onBody = vi.fn();
    vi.stubGlobal('fetch', vi.fn(async () => new Response(null, { status: 304 })));
    expect(await client.getConditional('/calls', schema, '"v1"', undefined, onBody)).toMatchObject({ notModified: true });
    expect(onBody).not.toHaveBeenCalled();
    vi.stubGlobal('fetch', vi.fn(async () => new Response('{"n":', { status: 200 })));
    await expect(client.getConditional('/calls', schema, undefined, undefined, onBody)).rejects.toThrow(/does not match the API/);
  });
});

describe('ApiClient credentials', () => {
  const session = new ApiClient({
    kind: 'session',
    baseURL: '',
    csrfToken: 'csrf-1',
    person: { subject: 's', email: 'ada@example.com', name: 'Ada' },
    roles: ['agent'],
  });
  const sent = () => {
    const fetchSpy = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) => Response.json({ n: 1 }));
    vi.stubGlobal('fetch', fetchSpy);
    return () => fetchSpy.mock.calls.map(([, init]) => ({ method: init?.method, headers: init?.headers as Record<string, string> }));
  };

  it("sends a session's CSRF token with each request that changes state, and never an Authorization header", async () => {
    const requests = sent();
    await session.get('/v1/me', schema);
    await session.head('/v1/calls/export');
    await session.post('/v1/calls', { remoteNumber: '1' }, { 'idempotency-key': 'k' });
    await session.delete('/v1/calls/c1');
    await session.postForAnswer('/auth/sign-out', schema);
    await session.put('/v1/calls/c1/listen/l1', { sdp: 'v=0' });
    const made = requests();
    expect(made.map((r) => [r.method, r.headers['x-csrf-token']])).toEqual([
      ['GET', undefined],
      ['HEAD', undefined],
      ['POST', 'csrf-1'],
      ['DELETE', 'csrf-1'],
      ['POST', 'csrf-1'],
      ['PUT', 'csrf-1'],
    ]);
    expect(made.every((r) => !Object.keys(r.headers).some((name) => name.toLowerCase() === 'authorization'))).toBe(true);
    expect(made[2]?.headers['idempotency-key']).toBe('k');
  });

  it("sends a token as the bearer, and no CSRF header", async () => {
    const requests = sent();
    await client.get('/v1/me', schema);
    await client.post('/v1/calls', {});
    expect(requests().map((r) => [r.headers.authorization, r.headers['x-csrf-token']])).toEqual([
      ['Bearer t', undefined],
      ['Bearer t', undefined],
    ]);
  });
});

describe('ApiClient bodies and refusals', () => {
  it('sends a JSON body with a POST whose answer it reads, and with a PUT', async () => {
    const fetchSpy = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) => Response.json({ n: 2 }));
    vi.stubGlobal('fetch', fetchSpy);
    expect(await client.postForAnswer('/credentials', schema, { providerSubscriberID: '1001' })).toEqual({ n: 2 });
    await client.put('/listen/l1', { sdp: 'v=0' });
    expect(fetchSpy.mock.calls.map(([, init]) => [init?.method, init?.body, (init?.headers as Record<string, string>)['content-type']])).toEqual([
      ['POST', '{"providerSubscriberID":"1001"}', 'application/json'],
      ['PUT', '{"sdp":"v=0"}', 'application/json'],
    ]);
  });

  it("keeps the service's words of a problem whose code this dashboard does not know yet", async () => {
    const problem = { type: 'urn:callboard:problem:listener_limit', title: 'x', status: 409, code: 'listener_limit', detail: 'Grace already listens to this call.' };
    vi.stubGlobal('fetch', vi.fn(async () => Response.json(problem, { status: 409, statusText: 'Conflict' })));
    await expect(client.postForAnswer('/listen', schema)).rejects.toMatchObject({ code: 'http_error', status: 409, detail: 'Grace already listens to this call.' });
    vi.stubGlobal('fetch', vi.fn(async () => new Response('busy', { status: 503, statusText: 'Service Unavailable' })));
    await expect(client.delete('/listen/l1')).rejects.toMatchObject({ code: 'http_error', detail: 'The service answered 503 Service Unavailable' });
  });
});
