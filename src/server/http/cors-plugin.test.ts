import { afterEach, describe, expect, it } from 'vitest';
import { buildTestApp, tokens, type TestApp } from '../test-support/test-app.js';

let t: TestApp;
afterEach(async () => {
  await t.app.close();
});

describe('CORS', () => {
  it('answers preflights and exposes freshness headers to listed origins only', async () => {
    t = await buildTestApp({ corsOrigins: ['https://board.example.com'] });
    const url = '/v1/accounts/acme/applications/support/provider/pbx/calls';
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url,
      headers: { origin: 'https://board.example.com', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-headers']).toContain('authorization');
    await t.app.providers.syncAll();
    const get = await t.as(tokens.acmeAll, { method: 'GET', url, headers: { origin: 'https://board.example.com' } });
    expect(get.headers['access-control-allow-origin']).toBe('https://board.example.com');
    expect(get.headers['access-control-expose-headers']).toContain('callboard-snapshot-age');
    const stranger = await t.as(tokens.acmeAll, { method: 'GET', url, headers: { origin: 'https://evil.example' } });
    expect(stranger.headers['access-control-allow-origin']).toBeUndefined();
  });
});
