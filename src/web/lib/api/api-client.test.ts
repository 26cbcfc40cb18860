import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ApiClient } from './api-client.js';

const client = new ApiClient({ baseURL: '', token: 't', remember: false });
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
