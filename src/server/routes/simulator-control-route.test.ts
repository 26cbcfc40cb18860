import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { ManualClock } from '../clock.js';
import { serviceConfigSchema } from '../config/config-schema.js';
import type { FastifyInstance } from 'fastify';
import { buildTestApp, tokens } from '../test-support/test-app.js';
import { createTestHistory } from '../test-support/test-history.js';

const token = 'simulator-control-token-0001';
let app: FastifyInstance;
let clock: ManualClock;
afterEach(async () => {
  await app.close();
});

const build = async () => {
  const history = await createTestHistory();
  app = await buildApp({
    history: await history.open(),
    clock: (clock = new ManualClock(Date.parse('2026-11-23T10:00:00Z'))),
    autoSync: false,
    config: serviceConfigSchema.parse({
      accounts: [
        {
          id: 'a',
          name: 'A',
          applications: [
            {
              id: 'app',
              name: 'App',
              providers: [
                { id: 'drill', name: 'Drill PBX', type: 'simulator', settings: { seed: 3, control: true } },
                { id: 'prod', name: 'Prod PBX', type: 'simulator', settings: { seed: 4 } },
              ],
            },
          ],
          tokens: [{ name: 't', token, applications: '*', permissions: ['calls:read', 'calls:write'] }],
        },
      ],
    }),
  });
  app.addHook('onClose', () => history.dispose());
  return app;
};

const put = (provider: string, mode: unknown) =>
  app.inject({
    method: 'PUT',
    url: `/v1/accounts/a/applications/app/providers/${provider}/simulator/failure`,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    payload: { mode },
  });

describe('simulator fault injection', () => {
  it('makes a controllable simulator fail and recover', async () => {
    await build();
    const subscribers = () => app.inject({ method: 'GET', url: '/v1/accounts/a/applications/app/providers/drill/subscribers', headers: { authorization: `Bearer ${token}` } });
    expect((await put('drill', 'error')).statusCode).toBe(204);
    expect((await subscribers()).json().code).toBe('provider_error');
    expect((await put('drill', null)).statusCode).toBe(204);
    expect((await subscribers()).statusCode).toBe(200);
  });

  it('is not offered by providers that did not enable it, and checks its body', async () => {
    await build();
    expect((await put('prod', 'error')).statusCode).toBe(404);
    const bad = await put('drill', 'explode');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].field).toBe('mode');
  });
});

describe('the control capability', () => {
  it('drives any phone system that offers it, whatever its type', async () => {
    const t = await buildTestApp();
    app = t.app;
    const set: unknown[] = [];
    t.phone('acme/support/pbx').control = {
      setFailure: async (mode) => void set.push(mode),
      scriptNextPlacedCall: async (script) => void set.push(script),
    };
    const res = await t.as(tokens.acmeAll, {
      method: 'PUT',
      url: '/v1/accounts/acme/applications/support/providers/pbx/simulator/failure',
      payload: { mode: 'stall' },
    });
    expect(res.statusCode).toBe(204);
    expect(set).toEqual(['stall']);
    const other = await t.as(tokens.acmeAll, {
      method: 'PUT',
      url: '/v1/accounts/acme/applications/support/providers/trunk/simulator/failure',
      payload: { mode: 'stall' },
    });
    expect(other.statusCode).toBe(404);
  });
});

describe('scripted placed calls', () => {
  it('makes the next placed call go as scripted', async () => {
    await build();
    const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const scripted = await app.inject({
      method: 'PUT',
      url: '/v1/accounts/a/applications/app/providers/drill/simulator/next-placed-call',
      headers: auth,
      payload: { agent: 'answer', agentRingMs: 1000, remote: 'busy', remoteRingMs: 2000 },
    });
    expect(scripted.statusCode).toBe(204);
    const refused = await app.inject({
      method: 'PUT',
      url: '/v1/accounts/a/applications/app/providers/drill/simulator/next-placed-call',
      headers: auth,
      payload: { remote: 'maybe' },
    });
    expect(refused.statusCode).toBe(400);

    const subscribers = await app.inject({ method: 'GET', url: '/v1/accounts/a/applications/app/providers/drill/subscribers', headers: auth });
    const agent = subscribers.json().subscribers.find((s: { registered: boolean; active: boolean }) => s.registered && s.active);
    const placed = await app.inject({
      method: 'POST',
      url: '/v1/accounts/a/applications/app/providers/drill/calls',
      headers: auth,
      payload: { providerSubscriberID: agent.providerSubscriberID, remoteNumber: '15555550100' },
    });
    expect(placed.statusCode).toBe(204);
    // Let the sync the placement started (and its journal write) finish before time moves on.
    await app.providers.syncAll();
    clock.advance(3_500);
    await app.providers.syncAll();
    const list = await app.inject({ method: 'GET', url: '/v1/accounts/a/applications/app/provider/drill/calls', headers: auth });
    const call = list.json().calls.find((c: { remoteNumber: string }) => c.remoteNumber === '15555550100');
    expect(call).toMatchObject({ isOutbound: true, subscriberID: agent.providerSubscriberID });
    expect(call.endedAt).toBeDefined();
    expect(call.answeredAt).toBeUndefined();
  });
});
