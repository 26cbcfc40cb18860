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

/**
 * The same diff of two lists sorted in one total order (`order`, 0 for one call's ID only), in one
 * walk of both without an index of either: unchanged calls cost a comparison, or none when they
 * are the very same object. A call whose place moved (its start changed) is passed in one list and
 * met later in the other: it is an upsert, not a removal.
 */
export const diffSortedCalls = (
  previous: readonly ProviderCall[],
  next: readonly ProviderCall[],
  order: (a: ProviderCall, b: ProviderCall) => number,
): CallDiff => {
  const upserted: ProviderCall[] = [];
  let removed: ProviderCall[] = [];
  let i = 0;
  let j = 0;
  while (i < previous.length && j < next.length) {
    const was = previous[i] as ProviderCall;
    const call = next[j] as ProviderCall;
    if (was === call) {
      i += 1;
      j += 1;
      continue;
    }
    const placed = order(was, call);
    if (placed === 0) {
      if (!sameCall(was, call)) upserted.push(call);
      i += 1;
      j += 1;
    } else if (placed < 0) {
      removed.push(was);
      i += 1;
    } else {
      upserted.push(call);
      j += 1;
    }
  }
  for (; i < previous.length; i += 1) removed.push(previous[i] as ProviderCall);
  for (; j < next.length; j += 1) upserted.push(next[j] as ProviderCall);
  if (removed.length > 0 && upserted.length > 0) {
    const moved = new Set(upserted.map((call) => call.callID));
    removed = removed.filter((call) => !moved.has(call.callID));
  }
  return { upserted, removed };
};

export const isEmptyDiff = (diff: CallDiff): boolean => diff.upserted.length === 0 && diff.removed.length === 0;
