/** The Twilio provider's past, read back from a double of the Calls resource whose clock the test sets. */
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../clock.js';
import { queuesConfigSchema } from '../../queues/queue-config.js';
import { TwilioDouble } from '../../../testbed/twilio/twilio-double.js';
import { TEST_ACCOUNT_SID, TEST_AUTH_TOKEN, TEST_NUMBER, twilioOnDouble } from '../../../testbed/twilio/twilio-testbed.js';
import type { PastCalls } from '../phone-system.js';

const HOUR = 3_600_000;
const NOW = Date.parse('2026-11-26T12:00:00Z');

let double: TwilioDouble | undefined;
afterEach(async () => {
  await double?.close();
});

describe('the Twilio provider’s past', () => {
  it('gives the calls that ended in a range, oldest end first, each with the agent who took it, none that began before the history', async () => {
    const clock = new ManualClock(NOW - 5 * HOUR);
    double = await TwilioDouble.start({ accountSid: TEST_ACCOUNT_SID, authToken: TEST_AUTH_TOKEN, now: () => clock.now() });
    const inbound = (from: string, { answerAfter, endAfter }: { answerAfter?: number; endAfter: number }) => {
      const root = (double as TwilioDouble).inbound({ from, to: `+${TEST_NUMBER}` });
      const [leg] = (double as TwilioDouble).dialAgents(root, ['client:ada'], { timeoutSeconds: 3600 });
      if (answerAfter !== undefined) {
        clock.advance(answerAfter);
        (double as TwilioDouble).answer(leg as string);
      }
      clock.advance(endAfter);
      (double as TwilioDouble).hangUp(root);
      return root;
    };
    const tooEarly = inbound('+15550100001', { answerAfter: 5000, endAfter: 2 * HOUR });
    clock.set(NOW - 3 * HOUR);
    const answered = inbound('+15550100002', { answerAfter: 4000, endAfter: 60_000 });
    const missed = inbound('+15550100003', { endAfter: 20_000 });
    clock.set(NOW - 30 * 60_000);
    const later = inbound('+15550100004', { endAfter: 1000 });
    clock.set(NOW);

    const twilio = twilioOnDouble(double, clock, queuesConfigSchema.parse([{ id: 'support', name: 'Support', numbers: [`+${TEST_NUMBER}`], providerQueues: ['support'] }]));
    const batches: PastCalls[] = [];
    for await (const batch of twilio.backfill?.({ since: NOW - 4 * HOUR, from: NOW - 4 * HOUR, to: NOW - HOUR }, AbortSignal.timeout(5000)) ?? []) batches.push(batch);
    const calls = batches.flatMap((batch) => batch.calls);
    expect(calls.map((call) => call.callID)).toEqual([answered, missed]);
    expect(calls[0]).toMatchObject({ isOutbound: false, isMissedCall: false, remoteNumber: '15550100002', subscriberID: 'agt-ada', answeredAt: NOW - 3 * HOUR + 4000 });
    // The past names no Twilio queue: a past call's queue is the number's it dialed.
    expect(calls[0]).toMatchObject({ calledNumber: TEST_NUMBER, queueID: 'support', queueName: 'Support' });
    expect(calls[1]).toMatchObject({ isMissedCall: true, remoteNumber: '15550100003' });
    expect(batches.at(-1)?.through).toBe(NOW - HOUR);
    expect([tooEarly, later].some((sid) => calls.some((call) => call.callID === sid))).toBe(false);
    expect(double.violations).toEqual([]);
  });
});
