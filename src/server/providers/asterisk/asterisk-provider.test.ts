/**
 * The service with an Asterisk provider on the double of ARI, from outside: calls listed and
 * streamed as the event socket tells them, placed and ended through the API, the agent board's
 * registrations, and the stream's status while the event socket is down.
 */
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import type { CallRecord } from '../../../contract/call-record.js';
import { paths } from '../../../contract/paths.js';
import { buildApp } from '../../app.js';
import { serviceConfigSchema } from '../../config/config-schema.js';
import { openStream } from '../../test-support/stream-client.js';
import { createTestHistory } from '../../test-support/test-history.js';
import { AriDouble } from '../../../testbed/asterisk/ari-double.js';
import { ARI_PASSWORD, ARI_USER, asteriskProviderConfig } from '../../../testbed/asterisk/asterisk-testbed.js';

const TOKEN = 'asterisk-provider-test-token-0001';
const SUPERVISOR_TOKEN = 'asterisk-provider-supervisor-0001';
const scope = { accountID: 'acme', applicationID: 'support', providerID: 'pbx' };
const REMOTE = '442079460958';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Bed {
  double: AriDouble;
  app: FastifyInstance;
  base: string;
  calls: () => Promise<CallRecord[]>;
  until: (test: (calls: CallRecord[]) => boolean) => Promise<CallRecord[]>;
}

const start = async (): Promise<Bed> => {
  const double = await AriDouble.start({ username: ARI_USER, password: ARI_PASSWORD, endpoints: ['PJSIP/101', 'PJSIP/102', 'PJSIP/103'] });
  cleanups.push(() => double.stop());
  cleanups.push(() => expect(double.violations).toEqual([]));
  const history = await createTestHistory();
  cleanups.push(() => history.dispose());
  const app = await buildApp({
    history: await history.open(),
    config: serviceConfigSchema.parse({
      accounts: [
        {
          id: 'acme',
          name: 'Acme',
          applications: [
            {
              id: 'support',
              name: 'Support',
              providers: [
                asteriskProviderConfig({
                  ariURL: double.url,
                  syncIntervalMs: 500,
                  queues: [{ id: 'support', name: 'Support', numbers: ['+15005550006'], providerQueues: ['support'] }],
                }),
              ],
            },
          ],
          tokens: [
            { name: 't', token: TOKEN, applications: '*', permissions: ['calls:read', 'calls:write'] },
            { name: 'floor-supervisor', token: SUPERVISOR_TOKEN, applications: '*', permissions: ['calls:read', 'calls:control'] },
          ],
        },
      ],
    }),
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  cleanups.push(() => app.close());
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  await app.providers.get(scope)?.sync.ready();
  const calls = async () =>
    ((await (await fetch(`${base}${paths.listCalls(scope)}`, { headers: { authorization: `Bearer ${TOKEN}` } })).json()) as { calls: CallRecord[] }).calls;
  const until = async (test: (listed: CallRecord[]) => boolean) => {
    const deadline = Date.now() + 5000;
    for (;;) {
      const listed = await calls();
      if (test(listed)) return listed;
      if (Date.now() > deadline) throw new Error(`not within 5 s; listed: ${JSON.stringify(listed)}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  return { double, app, base, calls, until };
};

describe('the Asterisk provider, against a double of ARI', () => {
  it('lists an inbound call as its events tell it, and a supervisor ends it through ARI', async () => {
    const bed = await start();
    const call = bed.double.inboundCall({ name: 'Jane Roe', number: '15550100001' }).ring(['PJSIP/101', 'PJSIP/102']);
    const [ringing] = await bed.until((listed) => listed[0]?.subscriberID !== undefined);
    expect(ringing).toMatchObject({ callID: call.channelID, providerCallID: call.channelID, isOutbound: false, remoteNumber: '15550100001', remoteName: 'Jane Roe' });
    // The caller dialed 15005550006 and waits in Asterisk's Queue(support), which the configured queue lists.
    expect(ringing).toMatchObject({ calledNumber: '15005550006', queueID: 'support', queueName: 'Support' });
    call.answer('PJSIP/101');
    const [answered] = await bed.until((listed) => listed[0]?.answeredAt !== undefined);
    expect(answered).toMatchObject({ subscriberID: 'agt-101', subscriberFirstName: 'Ada' });

    const ended = await fetch(`${bed.base}${paths.call(scope, call.channelID)}`, { method: 'DELETE', headers: { authorization: `Bearer ${SUPERVISOR_TOKEN}` } });
    expect(ended.status).toBe(204);
    const [over] = await bed.until((listed) => listed[0]?.endedAt !== undefined);
    expect(over).toMatchObject({ isMissedCall: false, endedBy: 'floor-supervisor' });
    expect(bed.double.liveChannels()).toEqual([]);
  });

  it('places a two-step call through the API: one outbound call, the agent\'s phone first', async () => {
    const bed = await start();
    bed.double.behave('PJSIP/103', { answerAfterMs: 50 });
    bed.double.behave(`number:${REMOTE}`, { answerAfterMs: 50, talkMs: 100 });
    const placed = await fetch(`${bed.base}${paths.makeCall(scope)}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ providerSubscriberID: 'agt-103', remoteNumber: REMOTE }),
    });
    expect(placed.status).toBe(204);
    const [listed] = await bed.calls();
    expect(listed).toMatchObject({ isOutbound: true, remoteNumber: REMOTE, subscriberID: 'agt-103' });
    const done = await bed.until((calls) => calls[0]?.endedAt !== undefined);
    expect(done).toHaveLength(1);
    expect(done[0]).toMatchObject({ isOutbound: true, isMissedCall: false, remoteNumber: REMOTE });
    expect(done[0]).not.toHaveProperty('queueID');
    expect(done[0]).not.toHaveProperty('calledNumber');
    expect(done[0]?.answeredAt).toBeDefined();
  });

  it('refuses a call for an agent whose phone is offline, as the endpoint\'s state change told', async () => {
    const bed = await start();
    bed.double.setEndpointState('PJSIP/102', 'offline');
    const placed = await fetch(`${bed.base}${paths.makeCall(scope)}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ providerSubscriberID: 'agt-102', remoteNumber: REMOTE }),
    });
    expect(placed.status).toBe(409);
    expect(await placed.json()).toMatchObject({ code: 'subscriber_not_registered', detail: expect.stringContaining('Extension 102 (Max Planck) is not registered') });
  });

  it('tells the stream when the event socket is down (calls polled meanwhile), and when it is back', async () => {
    const bed = await start();
    const stream = await openStream(`${bed.base}${paths.callStream(scope)}?providers=pbx`, { authorization: `Bearer ${TOKEN}` });
    cleanups.push(() => stream.close());
    await stream.next((event) => event.event === 'snapshot');
    bed.double.refuseEvents = true;
    bed.double.cutEvents();
    const down = await stream.next((event) => event.event === 'status');
    expect(JSON.parse(down.data)).toMatchObject({ providerID: 'pbx', available: true, degraded: expect.stringContaining('event socket is down') });
    // Polled while down: a call still reaches the stream.
    const call = bed.double.inboundCall({ name: '', number: '15550100009' });
    await stream.next((event) => event.event === 'changes' && event.data.includes(call.channelID), { timeoutMs: 3000 });
    bed.double.refuseEvents = false;
    const back = await stream.next((event) => event.event === 'status' && !event.data.includes('degraded'), { after: stream.events.indexOf(down) + 1, timeoutMs: 12_000 });
    expect(JSON.parse(back.data)).toEqual(expect.objectContaining({ providerID: 'pbx', available: true }));
  });
});
