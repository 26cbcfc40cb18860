import { describe, expect, it } from 'vitest';
import { callRecordSchema } from '../../contract/call-record.js';
import { toCallRecord } from '../calls/call-snapshot.js';
import { CALL_FIELD_NAMES } from '../providers/call-fields.js';
import type { ProviderCall } from '../providers/phone-system.js';
import { fromCallRow, toCallRow } from './call-rows.js';

const scope = { accountID: 'a', applicationID: 'app', providerID: 'p' };

/** A call with every field set, each to a value no other field has. */
const full: Required<ProviderCall> = {
  callID: 'c-1',
  providerCallID: 'pc-1',
  isOutbound: false,
  isMissedCall: true,
  remoteNumber: '15550100001',
  remoteName: 'Ada Caller',
  startedAt: Date.parse('2026-11-22T09:00:00.000Z'),
  answeredAt: Date.parse('2026-11-22T09:00:05.000Z'),
  endedAt: Date.parse('2026-11-22T09:01:00.000Z'),
  chosenContactID: 'contact-7',
  subscriberID: 'agt-1',
  subscriberFirstName: 'Grace',
  subscriberLastName: 'Hopper',
  subscriberEmail: 'grace@example.com',
  subscriberExtension: '101',
  subscriberNumber: '15550100101',
  subscriberAnsweredAt: Date.parse('2026-11-22T09:00:01.000Z'),
  endedBy: 'supervisor-board',
  calledNumber: '18005550100',
  queueID: 'support',
  queueName: 'Support',
};

describe('the call fields, listed once', () => {
  it('round-trip every field through the journal row', () => {
    const row = toCallRow(scope, full, true);
    expect(fromCallRow(row)).toEqual({ ...full, closedBySync: true });
    const sparse: ProviderCall = { callID: 'c-2', providerCallID: 'pc-2', isOutbound: true, isMissedCall: false, remoteNumber: '', startedAt: 1 };
    expect(fromCallRow(toCallRow(scope, sparse))).toEqual({ ...sparse, closedBySync: false });
  });

  it('reach the wire record, which names exactly the contract’s fields', () => {
    const record = toCallRecord(full, 'p', 'PBX');
    expect(callRecordSchema.strict().parse(record)).toEqual(record);
    expect(Object.keys(record).sort()).toEqual(Object.keys(callRecordSchema.shape).sort());
    expect(Object.keys(callRecordSchema.shape).sort()).toEqual([...CALL_FIELD_NAMES, 'callID', 'providerID', 'providerName'].sort());
  });
});
