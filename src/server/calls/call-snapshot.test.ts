import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { providerCall } from '../test-support/provider-call.js';
import { CallSnapshot } from './call-snapshot.js';

const provider = { id: 'pbx', name: 'Zentrale Köln' };
const at = Date.parse('2026-11-28T09:00:00.000Z');

describe('CallSnapshot', () => {
  it('serializes its list in ASCII, names with accents and all, in every form it serves', async () => {
    const calls = [
      providerCall('c1', at, { remoteName: 'Zoë Ångström', subscriberFirstName: 'José', subscriberLastName: '中村' }),
      providerCall('c2', at + 1000, { remoteName: 'Ada Lovelace' }),
    ];
    const { snapshot } = CallSnapshot.next(CallSnapshot.empty(provider), calls, at + 2000, provider);
    const body = snapshot.body;
    expect(body.every((byte) => byte < 0x80)).toBe(true);
    expect(gunzipSync(await snapshot.gzip()).equals(body)).toBe(true);
    const parsed = JSON.parse(body.toString('utf8')) as { calls: Record<string, unknown>[]; totalCalls: number };
    expect(parsed.totalCalls).toBe(2);
    expect(parsed.calls[0]).toMatchObject({ providerName: 'Zentrale Köln', remoteName: 'Zoë Ångström', subscriberFirstName: 'José', subscriberLastName: '中村' });
    // The stream's records are the same text.
    expect(JSON.parse(snapshot.callsJSON())).toEqual(parsed.calls);
  });

  it("writes a record's fields in the spec's order, the provider's after the call's ID, and only those it knows", () => {
    const call = providerCall('c3', at, { isOutbound: true, isMissedCall: true, answeredAt: at + 4000, subscriberID: 'agt-1', endedBy: 'supervisor' });
    const { snapshot } = CallSnapshot.next(CallSnapshot.empty(provider), [call], at + 5000, provider);
    // The list's ETag is a hash of these bytes: an unchanged call must serialize exactly so.
    expect(snapshot.recordJSON(call)).toBe(
      '{"callID":"c3","providerCallID":"c3@pbx","providerID":"pbx","providerName":"Zentrale K\\u00f6ln","isOutbound":true,' +
        '"isMissedCall":false,"remoteNumber":"15555550100","startedAt":"2026-11-28T09:00:00.000Z","answeredAt":"2026-11-28T09:00:04.000Z",' +
        '"subscriberID":"agt-1","endedBy":"supervisor"}',
    );
  });
});
