/** A valid call as a provider reports it, for the service's tests; override what the test is about. */
import type { ProviderCall } from '../providers/phone-system.js';

export const providerCall = (id: string, startedAt: number, extra: Partial<ProviderCall> = {}): ProviderCall => ({
  callID: id,
  providerCallID: `${id}@pbx`,
  isOutbound: false,
  isMissedCall: false,
  remoteNumber: '15555550100',
  startedAt,
  ...extra,
});
