import { describe, expect, it } from 'vitest';
import { endFetchStub, stubFetch } from './fetch-stub.js';

describe('stubFetch', () => {
  it('answers by method and path, with the named segments decoded', async () => {
    stubFetch({
      'GET /v1/accounts/:accountID/calls': ({ params, url }) => Response.json({ params, search: url.search }),
      'POST /v1/accounts/:accountID/calls': () => new Response(null, { status: 204 }),
    });
    const got = await fetch('/v1/accounts/acme%20corp/calls?fromDate=2026-11-22');
    expect(await got.json()).toEqual({ params: { accountID: 'acme corp' }, search: '?fromDate=2026-11-22' });
    expect((await fetch('/v1/accounts/acme/calls', { method: 'POST' })).status).toBe(204);
  });

  it('fails the test for a request no route answers, naming it', async () => {
    stubFetch({ 'GET /v1/me': () => Response.json({}) });
    expect((await fetch('/v1/me', { method: 'DELETE' })).status).toBe(501);
    expect((await fetch('/v1/metoo')).status).toBe(501);
    expect(() => endFetchStub()).toThrow(/no route .* answers:\n {2}DELETE \/v1\/me\n {2}GET \/v1\/metoo$/);
  });

  it('refuses a route it cannot read', () => {
    expect(() => stubFetch({ '/v1/me': () => Response.json({}) })).toThrow(/write it as a method and a path/);
    expect(() => stubFetch({ 'GET /v1/calls?fromDate=x': () => Response.json({}) })).toThrow(/write it as a method and a path/);
  });
});
