/** The Twilio queues calls wait in, read from a double of the Queue and Member resources within a bound of requests per list. */
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../clock.js';
import { queuesConfigSchema } from '../../queues/queue-config.js';
import { TwilioDouble } from '../../../testbed/twilio/twilio-double.js';
import { TEST_ACCOUNT_SID, TEST_AUTH_TOKEN, TEST_NUMBER, twilioOnDouble } from '../../../testbed/twilio/twilio-testbed.js';

let double: TwilioDouble | undefined;
afterEach(async () => {
  await double?.close();
});

const name = (i: number) => `q${String(i).padStart(2, '0')}`;

describe('the Twilio queues calls wait in', () => {
  it('reads the members of at most 10 queues a list, the others at the next, and none of a queue that is empty or that no configured queue names', async () => {
    double = await TwilioDouble.start({ accountSid: TEST_ACCOUNT_SID, authToken: TEST_AUTH_TOKEN });
    const queues = queuesConfigSchema.parse(Array.from({ length: 13 }, (_, i) => ({ id: name(i + 1), name: `Queue ${i + 1}`, providerQueues: [`twilio-${name(i + 1)}`] })));
    const calls = Array.from({ length: 12 }, (_, i) => {
      const sid = (double as TwilioDouble).inbound({ from: `+155501000${String(i).padStart(2, '0')}`, to: `+${TEST_NUMBER}` });
      (double as TwilioDouble).enqueue(sid, `twilio-${name(i + 1)}`);
      return sid;
    });
    // Named but empty (its caller was dequeued), and holding a caller but named by no queue.
    const gone = double.inbound({ from: '+15550100099', to: `+${TEST_NUMBER}` });
    const empty = double.enqueue(gone, `twilio-${name(13)}`);
    double.dequeue(gone);
    const unnamed = double.enqueue(double.inbound({ from: '+15550100098', to: `+${TEST_NUMBER}` }), 'unnamed');

    const twilio = twilioOnDouble(double, systemClock, queues);
    const queueOf = (listed: Awaited<ReturnType<typeof twilio.listCalls>>) => new Map(listed.map((call) => [call.callID, call.queueID]));
    const before = double.requests.length;
    const first = queueOf(await twilio.listCalls(AbortSignal.timeout(5000)));
    const firstRequests = double.requests.slice(before);
    // The calls' four lists, the queues, and the members of ten queues.
    expect(firstRequests.filter((request) => request.path.endsWith('/Queues.json'))).toHaveLength(1);
    expect(firstRequests.filter((request) => request.path.endsWith('/Members.json'))).toHaveLength(10);
    expect(calls.filter((sid) => first.get(sid) !== undefined)).toHaveLength(10);
    const second = queueOf(await twilio.listCalls(AbortSignal.timeout(5000)));
    // Between them, the two lists saw every waiting call in its queue.
    expect(calls.map((sid, i) => first.get(sid) ?? second.get(sid) ?? `none for ${name(i + 1)}`)).toEqual(calls.map((_, i) => name(i + 1)));
    const read = new Set(double.requests.filter((request) => request.path.endsWith('/Members.json')).map((request) => request.path));
    for (const sid of [empty, unnamed]) expect(read.has(`/2010-04-01/Accounts/${TEST_ACCOUNT_SID}/Queues/${sid}/Members.json`)).toBe(false);
    expect(double.violations).toEqual([]);
  });

  it('reads two pages of the account’s queues a list: a queue past them leaves its callers to the number they dialed, and the calls are still listed', async () => {
    double = await TwilioDouble.start({ accountSid: TEST_ACCOUNT_SID, authToken: TEST_AUTH_TOKEN });
    for (let i = 0; i < 2000; i += 1) double.enqueue(double.inbound({ from: `+1555030${String(i).padStart(4, '0')}`, to: '+15005550099' }), `holding-${i}`);
    const late = double.inbound({ from: '+15550100001', to: `+${TEST_NUMBER}` });
    double.enqueue(late, 'sales-q');
    const twilio = twilioOnDouble(
      double,
      systemClock,
      queuesConfigSchema.parse([
        { id: 'support', name: 'Support', numbers: [`+${TEST_NUMBER}`] },
        { id: 'sales', name: 'Sales', providerQueues: ['sales-q'] },
      ]),
    );
    const listed = await twilio.listCalls(AbortSignal.timeout(10_000));
    expect(listed).toHaveLength(2001);
    expect(listed.find((call) => call.callID === late)).toMatchObject({ queueID: 'support' });
    expect(double.requests.filter((request) => request.path.endsWith('/Queues.json'))).toHaveLength(2);
    expect(double.violations).toEqual([]);
  });

  it('reads no queue when no configured queue names a Twilio queue', async () => {
    double = await TwilioDouble.start({ accountSid: TEST_ACCOUNT_SID, authToken: TEST_AUTH_TOKEN });
    double.enqueue(double.inbound({ from: '+15550100001', to: `+${TEST_NUMBER}` }), 'support');
    const twilio = twilioOnDouble(double, systemClock, queuesConfigSchema.parse([{ id: 'support', name: 'Support', numbers: [`+${TEST_NUMBER}`] }]));
    const [call] = await twilio.listCalls(AbortSignal.timeout(5000));
    expect(call).toMatchObject({ calledNumber: TEST_NUMBER, queueID: 'support' });
    expect(double.requests.filter((request) => request.path.includes('/Queues'))).toEqual([]);
    expect(double.violations).toEqual([]);
  });
});
