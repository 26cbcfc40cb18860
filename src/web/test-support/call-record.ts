/** A valid call record for component and unit tests; override what the test is about. */
import type { CallRecord } from '../../contract/call-record.js';

export const callRecord = (callID: string, overrides: Partial<CallRecord> = {}): CallRecord => ({
  callID,
  providerCallID: `sip-${callID}`,
  providerID: 'pbx-main',
  providerName: 'Main PBX',
  isOutbound: false,
  isMissedCall: false,
  remoteNumber: '15555550100',
  startedAt: new Date(Date.now() - 60_000).toISOString(),
  ...overrides,
});
