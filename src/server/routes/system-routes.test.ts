import { afterEach, describe, expect, it } from 'vitest';
import { sha256 } from '../auth/token-index.js';
import { buildTestApp, tokens, type TestApp } from '../test-support/test-app.js';

const METRICS_TOKEN = 'metrics-scraper-token-0123456789';

let t: TestApp;
afterEach(async () => {
  await t.app.close();
});

describe('system routes', () => {
  it('serves health and the OpenAPI document without a token', async () => {
    t = await buildTestApp();
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
    const doc = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toContain('/v1/accounts/{accountID}/applications/{applicationID}/provider/{providerID}/calls');
    expect(Object.keys(doc.paths)).toContain('/v1/accounts/{accountID}/applications/{applicationID}/providers/{providerID}/calls');
    const concurrency = doc.paths['/v1/accounts/{accountID}/applications/{applicationID}/provider/{providerID}/concurrency'];
    expect(concurrency.get.parameters.map((p: { name: string }) => p.name)).toContain('bucketSeconds');
    expect(doc.components.schemas.ConcurrencyResponse.properties.buckets.items.required).toEqual(
      expect.arrayContaining(['start', 'peak', 'average', 'peakInbound', 'peakOutbound', 'started', 'missed']),
    );
    expect(doc.components.schemas.CallRecord.required).toEqual(
      expect.arrayContaining(['callID', 'providerCallID', 'providerID', 'providerName', 'isOutbound', 'isMissedCall', 'remoteNumber', 'startedAt']),
    );
    expect(doc.components.schemas.MakeCallRequest.additionalProperties).toBe(false);
    expect(doc.components.schemas.Problem.properties.code.enum).toContain('subscriber_not_registered');
    expect(doc.components.schemas.MeResponse.properties.subscriberIDs.description).toMatch(/subscriber_not_allowed/);
    expect(doc.components.schemas.MeResponse.required).not.toContain('subscriberIDs');
    const makeCall = doc.paths['/v1/accounts/{accountID}/applications/{applicationID}/providers/{providerID}/calls'].post;
    expect(makeCall.responses['403'].description).toBe('`forbidden`, `subscriber_not_allowed`');
  });

  it('exposes Prometheus metrics: requests, sync lag, live calls, fetches', async () => {
    t = await buildTestApp({ metrics: { token: METRICS_TOKEN } });
    t.phone('acme/support/pbx').calls = [
      { callID: 'c1', providerCallID: 'p1', isOutbound: false, isMissedCall: false, remoteNumber: '123', startedAt: 0 },
    ];
    await t.app.providers.syncAll();
    await t.as(tokens.acmeAll, { method: 'GET', url: '/v1/me' });
    const text = (await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).body;
    expect(text).toContain('callboard_http_requests_total{method="GET",route="/v1/me",status="200"} 1');
    expect(text).toContain('callboard_live_calls{account="acme",application="support",provider="pbx"} 1');
    expect(text).toMatch(/callboard_provider_snapshot_age_seconds\{account="acme",application="support",provider="pbx"\} 0/);
    expect(text).toContain('callboard_provider_fetches_total{account="acme",application="support",provider="pbx"} 1');
  });

  it('can require a token for metrics, or turn them off', async () => {
    t = await buildTestApp({ metrics: { enabled: true, tokenSha256: sha256('metrics-scraper-token').toString('hex') } });
    expect((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer metrics-scraper-token' } })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${tokens.acmeAll}` } })).statusCode).toBe(401);
    await t.app.close();
    t = await buildTestApp({ metrics: { enabled: false } });
    expect((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
  });

  it("tells no tenant the others' IDs: without a metrics token /metrics is not served at all", async () => {
    t = await buildTestApp();
    await t.app.providers.syncAll();
    for (const authorization of [undefined, `Bearer ${tokens.acmeAll}`, `Bearer ${tokens.globex}`]) {
      const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toMatch(/globex|acme/);
    }
    const doc = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    expect(Object.keys(doc.paths)).not.toContain('/metrics');
  });

  it("opens /metrics to its own token only, never to a tenant's", async () => {
    t = await buildTestApp({ metrics: { token: METRICS_TOKEN } });
    await t.app.providers.syncAll();
    for (const token of [tokens.acmeAll, tokens.globex]) {
      const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${token}` } });
      expect(res.statusCode).toBe(401);
      expect(res.body).not.toContain('globex');
    }
    expect((await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).body).toContain(
      'account="globex"',
    );
  });

  it('answers unknown routes with a problem and sets security headers', async () => {
    t = await buildTestApp();
    const res = await t.app.inject({ method: 'GET', url: '/v2/nothing?token=secret' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/problem\+json/);
    expect(res.json().detail).not.toContain('secret');
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });
});
