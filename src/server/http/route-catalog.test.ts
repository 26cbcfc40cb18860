import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { serviceConfigSchema } from '../config/config-schema.js';
import { ScriptedPhoneSystem } from '../test-support/scripted-phone-system.js';
import { buildTestApp, testConfig, type TestApp } from '../test-support/test-app.js';
import { createTestHistory } from '../test-support/test-history.js';
import { methodNotAllowedPlugin } from './method-not-allowed-plugin.js';
import { problemsPlugin } from './problems-plugin.js';
import { routeCatalogPlugin, type RouteDoc } from './route-catalog.js';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.app.close();
  t = undefined;
});

const OPERATIONS = ['get', 'put', 'post', 'patch', 'delete'] as const;

describe('the route catalog', () => {
  it('has a description, or a reason to be hidden, for every route the service registers', async () => {
    t = await buildTestApp();
    expect(t.app.routeCatalog.undocumented()).toEqual([]);
  });

  it('hides the dashboard and its files, and still describes every API route, when the dashboard is served', async () => {
    const webRoot = mkdtempSync(join(tmpdir(), 'callboard-web-'));
    mkdirSync(join(webRoot, 'assets'));
    writeFileSync(join(webRoot, 'index.html'), '<!doctype html><title>x</title>');
    writeFileSync(join(webRoot, 'assets', 'app.js'), '');
    const history = await createTestHistory();
    const app = await buildApp({
      config: serviceConfigSchema.parse(testConfig()),
      history: await history.open(),
      autoSync: false,
      webRoot,
      createPhoneSystem: () => new ScriptedPhoneSystem(),
    });
    await app.ready();
    try {
      expect(app.routeCatalog.undocumented()).toEqual([]);
      expect(app.routeCatalog.all().filter((e) => e.url === '/assets/app.js').map((e) => e.doc)).toEqual([{ hidden: expect.any(String) }]);
    } finally {
      await app.close();
      await history.dispose();
      rmSync(webRoot, { recursive: true, force: true });
    }
  });

  it('serves an OpenAPI document whose every operation is a registered route, and describes every documented route', async () => {
    t = await buildTestApp();
    const doc = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json() as { paths: Record<string, Record<string, unknown>> };
    const described = Object.entries(doc.paths).flatMap(([path, item]) =>
      OPERATIONS.filter((op) => op in item).map((op) => ({ method: op.toUpperCase(), url: path.replace(/\{(\w+)\}/g, ':$1') })),
    );
    for (const route of described) expect(t.app.hasRoute(route as { method: 'GET'; url: string }), `${route.method} ${route.url}`).toBe(true);
    const registered = t.app.routeCatalog.documented().map((e) => ({ method: e.method, url: e.url }));
    expect(described).toEqual(expect.arrayContaining(registered));
    expect(described).toHaveLength(registered.length);
  });

  it('reports a route registered without a description', async () => {
    const app = Fastify();
    await app.register(routeCatalogPlugin);
    app.get('/v1/forgotten', async () => ({}));
    await app.ready();
    expect(app.routeCatalog.undocumented()).toEqual([{ method: 'GET', url: '/v1/forgotten', doc: undefined }]);
    await app.close();
  });

  it('answers another method on a described path with 405, Allow and the route\'s own hint', async () => {
    const app = Fastify();
    await app.register(routeCatalogPlugin);
    await app.register(problemsPlugin);
    const doc: RouteDoc = { operationId: 'putThing', summary: 'Put a thing', responses: { '204': { description: 'Put' } }, otherMethods: () => 'Things are put, never fetched.' };
    app.put('/v1/things/:id', { config: { doc } }, async (_request, reply) => reply.code(204).send());
    await app.register(methodNotAllowedPlugin);
    const res = await app.inject({ method: 'GET', url: '/v1/things/7' });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('PUT');
    expect(res.json()).toMatchObject({ code: 'method_not_allowed', detail: 'GET is not allowed here. Things are put, never fetched.' });
    await app.close();
  });

  it('answers 405 on every path of the API, not only the two of the spec', async () => {
    t = await buildTestApp();
    const me = await t.app.inject({ method: 'DELETE', url: '/v1/me' });
    expect(me.statusCode).toBe(405);
    expect(me.headers.allow).toBe('GET, HEAD');
    const concurrency = await t.app.inject({ method: 'POST', url: '/v1/accounts/acme/applications/support/provider/pbx/concurrency' });
    expect(concurrency.json()).toMatchObject({ code: 'method_not_allowed', detail: 'POST is not allowed here. Analytics are read-only.' });
  });
});
