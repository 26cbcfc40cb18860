/** The README's run command as a new user meets it: the demo starts, prints its token, and both operations work. */
import { expect, test } from '@playwright/test';
import { listCallsResponseSchema } from '../src/contract/call-record.js';
import { meResponseSchema } from '../src/contract/me.js';
import { problemSchema } from '../src/contract/problem.js';
import { listSubscribersResponseSchema } from '../src/contract/subscriber.js';
import { startService, type ServiceProcess } from './support/service-process.js';

let service: ServiceProcess;
test.beforeAll(async () => {
  service = await startService();
});
test.afterAll(async () => {
  await service?.stop();
});

const api = (path: string, init: RequestInit = {}) =>
  fetch(`${service.baseURL}${path}`, { ...init, headers: { authorization: `Bearer ${service.token}`, ...init.headers } });

const listPath = '/v1/accounts/demo/applications/support/provider/pbx-main/calls';
const makePath = '/v1/accounts/demo/applications/support/providers/pbx-main/calls';

test('the demo lists live calls of its simulated phone system', async () => {
  const me = meResponseSchema.parse(await (await api('/v1/me')).json());
  expect(me.applications[0]?.providers.map((p) => p.id)).toEqual(['pbx-main', 'sip-trunk']);
  const res = await api(listPath);
  expect(res.status).toBe(200);
  expect(Number(res.headers.get('callboard-snapshot-age'))).toBeLessThan(5_000);
  const body = listCallsResponseSchema.parse(await res.json());
  expect(body.totalCalls).toBe(body.calls.length);
  expect(body.calls.filter((c) => !c.endedAt).length).toBeGreaterThanOrEqual(3);
});

test('a call placed through the API rings the agent first and shows in the list as theirs', async () => {
  const { subscribers } = listSubscribersResponseSchema.parse(
    await (await api('/v1/accounts/demo/applications/support/providers/pbx-main/subscribers')).json(),
  );
  const agent = subscribers.find((s) => s.registered && s.active);
  const offline = subscribers.find((s) => !s.registered);
  if (!agent || !offline) throw new Error('the demo should have registered and unregistered agents');

  const placed = await api(makePath, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': `e2e-${Date.now()}` },
    body: JSON.stringify({ providerSubscriberID: agent.providerSubscriberID, remoteNumber: '15555550199' }),
  });
  expect(placed.status).toBe(204);

  await expect
    .poll(async () => {
      const { calls } = listCallsResponseSchema.parse(await (await api(listPath)).json());
      return calls.find((c) => c.remoteNumber === '15555550199' && c.subscriberID === agent.providerSubscriberID);
    }, { timeout: 5_000 })
    .toMatchObject({ isOutbound: true });

  const refused = await api(makePath, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ providerSubscriberID: offline.providerSubscriberID, remoteNumber: '15555550199' }),
  });
  expect(refused.status).toBe(409);
  const problem = problemSchema.parse(await refused.json());
  expect(problem.code).toBe('subscriber_not_registered');
  expect(problem.detail).toContain(offline.extension);
});

test('the token appears once, in the banner, and never in the logs; SIGTERM shuts down cleanly', async () => {
  await api(listPath);
  const code = await service.stop();
  expect(code).toBe(0);
  const leaks = service
    .output()
    .split('\n')
    .filter((line) => line.includes(service.token) && line.trimStart().startsWith('{'));
  expect(leaks).toEqual([]);
  expect(service.output()).toContain('shutting down');
});
