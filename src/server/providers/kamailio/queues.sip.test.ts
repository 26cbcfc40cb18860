/**
 * Queues through Kamailio with real SIP phones: a customer dials a hunt group's number, the routing
 * script rings that group's phones at once and names the queue in the dialog variable `queue`; the
 * service lists the call in its queue with the number dialed, counts it in that queue's figures as
 * waiting while it rings and talking once answered, and keeps both after Kamailio dropped the
 * dialog's variables at its end. A direct call to an agent stays in no queue.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallRecord } from '../../../contract/call-record.js';
import type { QueuesResponse } from '../../../contract/queues.js';
import { startSipTestbed, type SipTestbed } from '../../../testbed/sip/sip-testbed.js';
import { startSipService, type SipService } from '../../test-support/sip-service.js';

const SUPPORT_NUMBER = '8000';
const SALES_NUMBER = '+18005550140';
const CUSTOMER = '15550007001';
const agents = [
  { subscriberID: 'agt-ada', sipUser: '2001', firstName: 'Ada', lastName: 'Lovelace', extension: '201' },
  { subscriberID: 'agt-bob', sipUser: '2002', firstName: 'Bob', lastName: 'Kahn', extension: '202' },
  { subscriberID: 'agt-radia', sipUser: '2003', firstName: 'Radia', lastName: 'Perlman', extension: '203' },
];
const queues = [
  { id: 'support', name: 'Support', numbers: [SUPPORT_NUMBER], providerQueues: ['support'], members: ['agt-ada', 'agt-bob'] },
  { id: 'sales', name: 'Sales', numbers: [SALES_NUMBER], providerQueues: ['sales'], members: ['agt-radia'] },
];

let bed: SipTestbed;
let service: SipService;
/** Which agents' phones rang for each SIP Call-ID. */
const rungFor = new Map<string, string[]>();

beforeAll(async () => {
  bed = await startSipTestbed({
    phones: [...agents.map((agent) => ({ user: agent.sipUser, answerMode: 'manual' as const })), { user: CUSTOMER, answerMode: 'manual' }],
    huntGroups: [
      { number: SUPPORT_NUMBER, queue: 'support', members: ['2001', '2002'] },
      { number: SALES_NUMBER, queue: 'sales', members: ['2003'] },
    ],
  });
  for (const { sipUser } of agents)
    bed.phone(sipUser).control.onEvent((event) => {
      if (event.type === 'CALL_INCOMING' && event.id !== undefined) rungFor.set(event.id, [...(rungFor.get(event.id) ?? []), sipUser].sort());
    });
  service = await startSipService(bed, agents, { queues });
}, 60_000);

afterAll(async () => {
  await service?.close();
  await bed?.stop();
});

const customer = () => bed.phone(CUSTOMER).control;

/** Polls the queues' figures (computed at most once a second) until `pick` finds what the test waits for. */
const figuresUntil = async <T>(pick: (figures: QueuesResponse) => T | undefined, what: string, timeoutMs = 10_000): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const figures = await service.queues();
    const found = pick(figures);
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`${what} within ${timeoutMs} ms; figures: ${JSON.stringify(figures)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

const queueWhere = (queueID: string, holds: (queue: QueuesResponse['queues'][number]) => boolean) => (figures: QueuesResponse) =>
  figures.queues.find((queue) => queue.queueID === queueID && holds(queue));

/** The customer dials `number`; resolves once every phone of `rung` rings and the service lists the call ringing. */
const customerDials = async (number: string, rung: readonly string[]): Promise<CallRecord> => {
  const since = rung.map((user) => bed.phone(user).control.seen);
  await customer().dial(bed.uriOf(number));
  const incoming = await Promise.all(rung.map((user, i) => bed.phone(user).control.waitFor((e) => e.type === 'CALL_INCOMING', { since: since[i] })));
  const sipCallID = incoming[0]?.id;
  const ringing = await service.listedUntil((calls) => calls.find((c) => c.providerCallID === sipCallID), 'the ringing call was not listed');
  // Kamailio forks at once: by the time the service listed the call, any other phone it rang has rung too.
  expect(rungFor.get(sipCallID as string)).toEqual([...rung].sort());
  return ringing;
};

/** `user` answers the ringing call; resolves once the service lists it answered. */
const answers = async (user: string, ringing: CallRecord): Promise<CallRecord> => {
  const since = customer().seen;
  await bed.phone(user).control.answer();
  await customer().waitFor((e) => e.type === 'CALL_ESTABLISHED', { since });
  return service.listedUntil((calls) => calls.find((c) => c.callID === ringing.callID && c.answeredAt), 'the answer was not listed');
};

/** The customer hangs up on `user`; resolves once the service lists the call ended. */
const customerHangsUp = async (user: string, callID: string): Promise<CallRecord> => {
  const since = bed.phone(user).control.seen;
  await customer().hangup();
  await bed.phone(user).control.waitFor((e) => e.type === 'CALL_CLOSED', { since });
  return service.listedUntil((calls) => calls.find((c) => c.callID === callID && c.endedAt), 'the end was not listed');
};

describe('queues through Kamailio with real SIP phones', () => {
  it("a call to support's number rings its two members only, and is listed and counted in support while it rings, once answered and after it ended", async () => {
    const ringing = await customerDials(SUPPORT_NUMBER, ['2001', '2002']);
    const inSupport = { isOutbound: false, remoteNumber: CUSTOMER, calledNumber: SUPPORT_NUMBER, queueID: 'support', queueName: 'Support' };
    expect(ringing).toMatchObject(inSupport);
    const waiting = await figuresUntil(queueWhere('support', (queue) => queue.now.waiting === 1), 'support did not count the call waiting');
    expect(waiting.today).toMatchObject({ offered: 1, answered: 0, waiting: 1 });
    expect((await service.queues()).queues.find((queue) => queue.queueID === 'sales')?.today.offered).toBe(0);

    // Bob answers: Kamailio cancels Ada's ringing phone.
    const adaSince = bed.phone('2001').control.seen;
    const answered = await answers('2002', ringing);
    await bed.phone('2001').control.waitFor((e) => e.type === 'CALL_CLOSED', { since: adaSince });
    expect(answered).toMatchObject(inSupport);
    const talking = await figuresUntil(queueWhere('support', (queue) => queue.now.talking === 1), 'support did not count the call talking');
    expect(talking.now.waiting).toBe(0);
    expect(talking.today).toMatchObject({ offered: 1, answered: 1 });

    // The ended dialog lists no variables any more: the service keeps the queue and the number it saw.
    expect(await customerHangsUp('2002', ringing.callID)).toMatchObject(inSupport);
    const ended = await figuresUntil(queueWhere('support', (queue) => queue.now.talking === 0), 'support still counted the call talking');
    expect(ended.today).toMatchObject({ offered: 1, answered: 1, waiting: 0 });
  });

  it("a call to sales' number rings its member only, and is listed and counted in sales with the number's digits", async () => {
    const ringing = await customerDials(SALES_NUMBER, ['2003']);
    const inSales = { isOutbound: false, remoteNumber: CUSTOMER, calledNumber: '18005550140', queueID: 'sales', queueName: 'Sales' };
    expect(ringing).toMatchObject(inSales);
    await figuresUntil(queueWhere('sales', (queue) => queue.now.waiting === 1 && queue.today.offered === 1), 'sales did not count the call waiting');

    expect(await answers('2003', ringing)).toMatchObject(inSales);
    const talking = await figuresUntil(queueWhere('sales', (queue) => queue.now.talking === 1), 'sales did not count the call talking');
    expect(talking.today).toMatchObject({ offered: 1, answered: 1 });
    expect((await service.queues()).queues.find((queue) => queue.queueID === 'support')?.today.offered).toBe(1);
    await customerHangsUp('2003', ringing.callID);
  });

  it('a direct call to an agent rings that phone only and is in no queue, with the extension dialed', async () => {
    const ringing = await customerDials('2001', ['2001']);
    expect(ringing).toMatchObject({ isOutbound: false, calledNumber: '2001', subscriberID: 'agt-ada' });
    expect(ringing.queueID).toBeUndefined();
    const figures = await figuresUntil((response) => (response.unqueued?.now.waiting === 1 ? response : undefined), 'the call was not counted in no queue');
    expect(figures.queues.map((queue) => [queue.queueID, queue.now.waiting, queue.today.offered])).toEqual([
      ['support', 0, 1],
      ['sales', 0, 1],
    ]);
    const since = bed.phone('2001').control.seen;
    await customer().hangup();
    await bed.phone('2001').control.waitFor((e) => e.type === 'CALL_CLOSED', { since });
  });
});
