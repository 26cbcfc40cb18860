import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { meResponseSchema } from '../../contract/me.js';
import { paths } from '../../contract/paths.js';
import { listSubscribersResponseSchema } from '../../contract/subscriber.js';
import { subscriber } from '../test-support/scripted-phone-system.js';
import { buildTestApp, tokens, type TestApp } from '../test-support/test-app.js';

let t: TestApp;
beforeEach(async () => {
  t = await buildTestApp();
});
afterEach(async () => {
  await t.app.close();
});

describe('GET /v1/me', () => {
  it('tells a token its account, visible applications with providers, and permissions', async () => {
    const res = await t.as(tokens.acmeSupportRead, { method: 'GET', url: paths.me() });
    expect(meResponseSchema.parse(res.json())).toEqual({
      account: { id: 'acme', name: 'Acme' },
      applications: [
        {
          id: 'support',
          name: 'Support',
          providers: [
            { id: 'pbx', name: 'Acme PBX', type: 'simulator', canEndCalls: false, canListen: false, softphone: false },
            { id: 'trunk', name: 'Acme Trunk', type: 'simulator', canEndCalls: false, canListen: false, softphone: false },
          ],
        },
      ],
      permissions: ['calls:export', 'calls:read'],
    });
  });

  it("says which subscribers an agent's token places calls as, and nothing of the kind for a supervisor's", async () => {
    const agent = meResponseSchema.parse((await t.as(tokens.acmeAgent, { method: 'GET', url: paths.me() })).json());
    expect(agent.subscriberIDs).toEqual(['agt-1']);
    expect(agent.permissions).toEqual(['calls:export', 'calls:read', 'calls:write']);
    const supervisor = (await t.as(tokens.acmeAll, { method: 'GET', url: paths.me() })).json();
    expect(supervisor).not.toHaveProperty('subscriberIDs');
  });

  it('needs a token', async () => {
    expect((await t.app.inject({ method: 'GET', url: paths.me() })).statusCode).toBe(401);
  });
});

describe('GET subscribers', () => {
  const url = paths.subscribers({ accountID: 'acme', applicationID: 'support', providerID: 'pbx' });

  it('lists the provider subscribers by last name', async () => {
    t.phone('acme/support/pbx').subscribers = [
      subscriber({ providerSubscriberID: 'b', lastName: 'Zed' }),
      subscriber({ providerSubscriberID: 'a', lastName: 'Abe', registered: false }),
    ];
    const res = await t.as(tokens.acmeAll, { method: 'GET', url });
    const body = listSubscribersResponseSchema.parse(res.json());
    expect(body.subscribers.map((s) => s.providerSubscriberID)).toEqual(['a', 'b']);
    expect(body.subscribers[0]?.registered).toBe(false);
  });

  it('is scoped like the calls', async () => {
    expect((await t.as(tokens.globex, { method: 'GET', url })).statusCode).toBe(404);
  });

  it('maps a provider failure to its problem', async () => {
    t.phone('acme/support/pbx').failure = 'error';
    const res = await t.as(tokens.acmeAll, { method: 'GET', url });
    expect(res.statusCode).toBe(502);
    expect(res.json().code).toBe('provider_error');
  });
});
