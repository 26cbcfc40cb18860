import { gunzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { paths } from '../../contract/paths.js';
import { buildTestApp, tokens, type TestApp } from '../test-support/test-app.js';

const acmePbx = { accountID: 'acme', applicationID: 'support', providerID: 'pbx' };
// A day of 5-minute buckets: 288 of them, tens of KiB of JSON.
const day = `${paths.concurrency(acmePbx)}?fromDate=2026-11-21T09:00:00Z`;

let t: TestApp;
beforeEach(async () => {
  t = await buildTestApp();
});
afterEach(async () => {
  await t.app.close();
});

const get = (url: string, headers: Record<string, string> = {}) => t.as(tokens.acmeAll, { method: 'GET', url, headers });

describe('JSON answers', () => {
  it('are gzipped when the client accepts it, with the same JSON inside', async () => {
    const plain = await get(day);
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(10_000);

    const zipped = await get(day, { 'accept-encoding': 'gzip, deflate, br' });
    expect(zipped.statusCode).toBe(200);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers['content-type']).toMatch(/^application\/json/);
    expect(zipped.headers.vary).toMatch(/Accept-Encoding/);
    expect(zipped.rawPayload.length).toBeLessThan(plain.body.length / 5);
    expect(Number(zipped.headers['content-length'])).toBe(zipped.rawPayload.length);
    expect(gunzipSync(zipped.rawPayload).toString()).toBe(plain.body);
  });

  it('include the OpenAPI document, served without a token', async () => {
    const res = await t.app.inject({ method: 'GET', url: paths.openapi(), headers: { 'accept-encoding': 'gzip' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(res.rawPayload).toString())).toHaveProperty('openapi');
  });

  it('are sent as they are when gzip is refused or the answer is small', async () => {
    expect((await get(day, { 'accept-encoding': 'gzip;q=0, br' })).headers['content-encoding']).toBeUndefined();
    const small = await get(paths.me(), { 'accept-encoding': 'gzip' });
    expect(small.statusCode).toBe(200);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json()).toHaveProperty('account.id', 'acme');
  });

});
