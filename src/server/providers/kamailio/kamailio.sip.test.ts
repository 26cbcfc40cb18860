/** The Kamailio provider against real SIP calls between real phones (the test bed), through the service's routes. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paths } from '../../../contract/paths.js';
import { listSubscribersResponseSchema } from '../../../contract/subscriber.js';
import { listAgentsResponseSchema } from '../../../contract/agents.js';
import { startSipTestbed, type SipTestbed } from '../../../testbed/sip/sip-testbed.js';
import { sipScope as scope, startSipService, type SipService } from '../../test-support/sip-service.js';

/** Ended calls stay listed this long: short, so a test sees them leave. */
const KEEP_ENDED_MS = 2000;
const CUSTOMER_1 = '15550002001';
const CUSTOMER_2 = '15550002002';
const agents = [
  { subscriberID: 'agt-ada', sipUser: '1001', firstName: 'Ada', lastName: 'Lovelace', extension: '101' },
  { subscriberID: 'agt-bob', sipUser: '1002', firstName: 'Bob', lastName: 'Kahn', extension: '102' },
  { subscriberID: 'agt-off', sipUser: '1009', firstName: 'Grace', lastName: 'Hopper', extension: '109' },
];

let bed: SipTestbed;
let service: SipService;

beforeAll(async () => {
  bed = await startSipTestbed({
    phones: [{ user: '1001', answerMode: 'manual' }, { user: '1002' }, { user: CUSTOMER_1 }, { user: CUSTOMER_2 }],
  });
  service = await startSipService(bed, agents, { keepEndedMs: KEEP_ENDED_MS });
}, 60_000);

afterAll(async () => {
  await service?.close();
  await bed?.stop();
});

const get = (url: string) => service.get(url);
const listCalls = () => service.listCalls();
const listedUntil: SipService['listedUntil'] = (pick, what, timeoutMs) => service.listedUntil(pick, what, timeoutMs);
const placeCall = (body: object) => service.placeCall(body);

describe('Kamailio provider with real SIP phones', () => {
  it('lists who is registered', async () => {
    const { subscribers } = listSubscribersResponseSchema.parse((await get(paths.subscribers(scope))).json());
    expect(subscribers.map((s) => [s.providerSubscriberID, s.registered])).toEqual([
      ['agt-off', false],
      ['agt-bob', true],
      ['agt-ada', true],
    ]);
  });

  it("shows an agent's phone on the board as it rings, talks, hangs up, signs off and signs on again", async () => {
    const ada = bed.phone('1001').control;
    const customer = bed.phone(CUSTOMER_2).control;
    const stateOfAda = async () => {
      const board = listAgentsResponseSchema.parse((await get(paths.agents(scope))).json());
      return board.agents.find((agent) => agent.subscriberID === 'agt-ada');
    };
    const until = async (state: string, what: string) => {
      const deadline = Date.now() + 10_000;
      for (;;) {
        const agent = await stateOfAda();
        if (agent?.state === state) return agent;
        if (Date.now() > deadline) throw new Error(`${what}: Ada is ${JSON.stringify(agent)}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    await until('available', 'Ada was not available at first');

    const since = ada.seen;
    await customer.dial(bed.uriOf('1001'));
    await ada.waitFor((e) => e.type === 'CALL_INCOMING', { since });
    expect(await until('ringing', 'Ada was not ringing')).toMatchObject({ remoteNumber: CUSTOMER_2 });
    await ada.answer();
    const onCall = await until('on-call', 'Ada was not on the call');
    expect(onCall).toMatchObject({ remoteNumber: CUSTOMER_2, callID: expect.stringMatching(/^kam-/) });
    await ada.hangup();
    await until('available', 'Ada was not available after the call');

    // Her phone's account is removed (it unregisters): Kamailio's location table drops her, the board says offline.
    const account = `<${bed.uriOf('1001')};transport=udp>;regint=3600;answermode=manual;audio_codecs=pcmu`;
    await ada.command('uadel', bed.uriOf('1001'));
    await until('offline', 'Ada was not offline once her phone unregistered');
    await ada.command('uanew', account);
    await until('available', 'Ada was not available once her phone registered again');
  });

  it('lists a direct call between two phones with its fields, ends it at the hang-up, and drops it keepEndedMs later', async () => {
    const customer = bed.phone(CUSTOMER_1).control;
    const since = customer.seen;
    await customer.dial(bed.uriOf('1002'));
    const established = await customer.waitFor((e) => e.type === 'CALL_ESTABLISHED', { since });

    const call = await listedUntil((calls) => calls.find((c) => c.providerCallID === established.id && c.answeredAt), 'the answered call was not listed');
    expect(call).toMatchObject({
      callID: expect.stringMatching(/^kam-/),
      providerID: 'kamailio',
      isOutbound: false,
      isMissedCall: false,
      remoteNumber: CUSTOMER_1,
      subscriberID: 'agt-bob',
      subscriberFirstName: 'Bob',
      subscriberLastName: 'Kahn',
      subscriberExtension: '102',
    });
    expect(Date.parse(call.answeredAt as string)).toBeGreaterThanOrEqual(Date.parse(call.startedAt));
    expect(Math.abs(Date.parse(call.answeredAt as string) - established.at)).toBeLessThan(2000);

    // Watched from before the hang-up: the end is listed for keepEndedMs only, however long the phone takes to confirm it hung up.
    const endListed = listedUntil((calls) => calls.find((c) => c.callID === call.callID && c.endedAt), 'the call was not listed ended');
    await customer.hangup();
    const ended = await endListed;
    expect(ended).toMatchObject({ isMissedCall: false, answeredAt: call.answeredAt });
    await listedUntil((calls) => (calls.some((c) => c.callID === call.callID) ? undefined : true), 'the ended call stayed listed', KEEP_ENDED_MS + 5000);
  });

  it('click-to-call rings the subscriber, then bridges them to the remote number as one outbound call', async () => {
    const agent = bed.phone('1001').control;
    const customer = bed.phone(CUSTOMER_2).control;
    const [agentSince, customerSince] = [agent.seen, customer.seen];
    const response = await placeCall({ providerSubscriberID: 'agt-ada', remoteNumber: CUSTOMER_2 });
    expect(response.statusCode).toBe(204);

    await agent.waitFor((e) => e.type === 'CALL_INCOMING', { since: agentSince });
    const ringing = await listedUntil((calls) => calls.find((c) => c.subscriberID === 'agt-ada'), 'the ringing call was not listed');
    expect(ringing).toMatchObject({ isOutbound: true, remoteNumber: CUSTOMER_2, subscriberFirstName: 'Ada' });
    expect(ringing.answeredAt).toBeUndefined();

    await agent.answer();
    await customer.waitFor((e) => e.type === 'CALL_ESTABLISHED', { since: customerSince });
    const connected = await listedUntil(
      (calls) => calls.find((c) => c.callID === ringing.callID && c.answeredAt),
      'the bridged call was not listed as connected',
    );
    expect(connected).toMatchObject({ isOutbound: true, remoteNumber: CUSTOMER_2, subscriberID: 'agt-ada', startedAt: ringing.startedAt });
    expect(connected.providerCallID).not.toBe(ringing.providerCallID);
    expect((await listCalls()).filter((c) => c.subscriberID === 'agt-ada')).toHaveLength(1);

    await customer.hangup();
    const ended = await listedUntil((calls) => calls.find((c) => c.callID === ringing.callID && c.endedAt), 'the call was not listed ended');
    expect(ended).toMatchObject({ isOutbound: true, isMissedCall: false, answeredAt: connected.answeredAt });
    await listedUntil((calls) => (calls.some((c) => c.callID === ringing.callID) ? undefined : true), 'the ended call stayed listed', KEEP_ENDED_MS + 5000);
  });

  it('refuses a subscriber whose phone is not registered with 409', async () => {
    const response = await placeCall({ providerSubscriberID: 'agt-off', remoteNumber: CUSTOMER_1 });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ code: 'subscriber_not_registered' });
  });

  it('answers 503 once Kamailio is down, for the subscribers at once and for the list after staleAfterMs', async () => {
    await bed.stopKamailio();
    const subscribers = await get(paths.subscribers(scope));
    expect(subscribers.statusCode).toBe(503);
    expect(subscribers.json()).toMatchObject({ code: 'provider_unavailable' });

    const deadline = Date.now() + 10_000;
    let list = await get(paths.listCalls(scope));
    while (list.statusCode === 200 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      list = await get(paths.listCalls(scope));
    }
    expect(list.statusCode).toBe(503);
    expect(list.json()).toMatchObject({ code: 'provider_unavailable', detail: expect.stringMatching(/ECONNREFUSED/) });
  });
});
