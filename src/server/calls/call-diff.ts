/** What changed between two lists of a provider's calls: new or changed calls, and calls that left. */
import { sameCall } from '../providers/call-fields.js';
import type { ProviderCall } from '../providers/phone-system.js';

export interface CallDiff {
  /** Calls that are new, or whose fields changed, in `next`'s order. */
  upserted: ProviderCall[];
  /** The calls of `previous` that `next` no longer lists. */
  removed: ProviderCall[];
}

export const diffCalls = (previous: readonly ProviderCall[], next: readonly ProviderCall[]): CallDiff => {
  const before = new Map(previous.map((call) => [call.callID, call]));
  const upserted: ProviderCall[] = [];
  for (const call of next) {
    const was = before.get(call.callID);
    before.delete(call.callID);
    if (!was || !sameCall(was, call)) upserted.push(call);
  }
  return { upserted, removed: [...before.values()] };
};

export const isEmptyDiff = (diff: CallDiff): boolean => diff.upserted.length === 0 && diff.removed.length === 0;
