import { describe, expect, it } from 'vitest';
import type { CallRecord } from '../../../../contract/call-record.js';
import { findPlacedCall, NOT_LISTED_AFTER_MS, progressOf } from './use-call-progress.js';
import type { PlacedCall } from './use-place-call.js';

const SENT = Date.parse('2026-11-22T09:00:00.000Z');
const at = (offsetMs: number) => new Date(SENT + offsetMs).toISOString();

const placed: PlacedCall = {
  scope: { accountID: 'demo', applicationID: 'support', providerID: 'pbx-main' },
  providerName: 'Main PBX',
  subscriberID: 'agt-0001',
  callerName: 'Maya',
  digits: '15551234567',
  idempotencyKey: 'k-1',
  sentAt: SENT,
  acceptedAt: SENT + 300,
};

const call = (overrides: Partial<CallRecord> = {}): CallRecord => ({
  callID: 'c-1',
  providerCallID: 'p-1',
  providerID: 'pbx-main',
  providerName: 'Main PBX',
  isOutbound: true,
  isMissedCall: false,
  remoteNumber: '15551234567',
  startedAt: at(200),
  subscriberID: 'agt-0001',
  ...overrides,
});

describe('findPlacedCall', () => {
  it('finds the outbound call of the same caller and number started around the request', () => {
    const ours = call();
    expect(findPlacedCall(placed, [call({ callID: 'x', isOutbound: false }), ours])).toBe(ours);
  });

  it.each([
    ['another provider', { providerID: 'sip-trunk' }],
    ['another subscriber', { subscriberID: 'agt-0002' }],
    ['another number', { remoteNumber: '15551234568' }],
    ['an inbound call', { isOutbound: false }],
    ['a call started long before', { startedAt: at(-60_000) }],
    ['a call started long after', { startedAt: at(60_000) }],
  ])('ignores %s', (_what, overrides) => {
    expect(findPlacedCall(placed, [call(overrides)])).toBeUndefined();
  });

  it('prefers the call started closest to the request when the same number was dialled twice', () => {
    const earlier = call({ callID: 'earlier', startedAt: at(-8_000) });
    const ours = call({ callID: 'ours', startedAt: at(400) });
    expect(findPlacedCall(placed, [earlier, ours])?.callID).toBe('ours');
  });
});

describe('progressOf', () => {
  it('waits for the call to be listed, then says plainly that it is not', () => {
    expect(progressOf(placed, undefined, undefined, SENT + 5_000)).toEqual({ phase: 'accepted', elapsedMs: 5_000 });
    expect(progressOf(placed, undefined, undefined, placed.acceptedAt + NOT_LISTED_AFTER_MS)).toEqual({ phase: 'not-listed' });
  });

  it('reads ringing, connected, not answered and ended from the times', () => {
    expect(progressOf(placed, call(), undefined, SENT + 7_200)).toEqual({ phase: 'ringing', elapsedMs: 7_000 });
    const answered = call({ answeredAt: at(10_200) });
    expect(progressOf(placed, answered, undefined, SENT + 70_200)).toEqual({ phase: 'connected', talkMs: 60_000 });
    expect(progressOf(placed, call({ endedAt: at(30_200) }), undefined, SENT + 40_000)).toEqual({ phase: 'not-answered', totalMs: 30_000 });
    expect(progressOf(placed, call({ answeredAt: at(10_200), endedAt: at(75_200) }), undefined, SENT + 99_000)).toEqual({
      phase: 'ended',
      talkMs: 65_000,
      totalMs: 75_000,
    });
  });

  it("keeps an ended call's outcome once the list drops it, and says when a live one vanishes", () => {
    const ended = call({ answeredAt: at(10_200), endedAt: at(75_200) });
    expect(progressOf(placed, undefined, ended, SENT + 300_000)).toEqual({ phase: 'ended', talkMs: 65_000, totalMs: 75_000 });
    expect(progressOf(placed, undefined, call({ answeredAt: at(10_200) }), SENT + 300_000)).toEqual({
      phase: 'gone',
      answered: true,
    });
  });
});
