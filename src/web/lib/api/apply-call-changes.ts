/**
 * A provider's list kept up to date from the change stream: replace the list with a snapshot, or
 * apply one change to it. Calls that did not change keep their objects (their rows do not
 * render again) and the list stays in the service's order, oldest start first.
 */
import type { CallRecord } from '../../../contract/call-record.js';

export const byStart = (a: CallRecord, b: CallRecord): number =>
  a.startedAt < b.startedAt ? -1 : a.startedAt > b.startedAt ? 1 : a.callID < b.callID ? -1 : a.callID > b.callID ? 1 : 0;

/** Lists each sorted oldest start first, as one list in that order, in a single pass. */
export const mergeSorted = (lists: readonly (readonly CallRecord[])[]): CallRecord[] => {
  const nonEmpty = lists.filter((list) => list.length > 0);
  if (nonEmpty.length <= 1) return [...(nonEmpty[0] ?? [])];
  const at = nonEmpty.map(() => 0);
  const merged: CallRecord[] = [];
  for (;;) {
    let pick = -1;
    for (let i = 0; i < nonEmpty.length; i += 1) {
      const candidate = nonEmpty[i]?.[at[i] ?? 0];
      if (candidate && (pick < 0 || byStart(candidate, nonEmpty[pick]?.[at[pick] ?? 0] as CallRecord) < 0)) pick = i;
    }
    if (pick < 0) return merged;
    merged.push(nonEmpty[pick]?.[at[pick] ?? 0] as CallRecord);
    at[pick] = (at[pick] ?? 0) + 1;
  }
};

/** Where `call` goes in `calls` (sorted by start): after every call that sorts before it. */
const placeOf = (calls: readonly CallRecord[], call: CallRecord): number => {
  let low = 0;
  let high = calls.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (byStart(calls[middle] as CallRecord, call) < 0) low = middle + 1;
    else high = middle;
  }
  return low;
};

/** Up to this many placed calls go in one by one (a binary search and a native splice each); more, in one merge. */
const INSERT_ONE_BY_ONE = 32;

/**
 * `calls` with `upserted` put in place (added, or replacing the call with the same ID) and the
 * calls named in `removed` dropped. Returns `calls` itself when nothing changed.
 */
export const applyCallChanges = (
  calls: readonly CallRecord[],
  upserted: readonly CallRecord[],
  removed: readonly string[],
): CallRecord[] => {
  if (upserted.length === 0 && removed.length === 0) return calls as CallRecord[];
  const drop = new Set(removed);
  const replacing = new Map(upserted.map((call) => [call.callID, call]));
  const next: CallRecord[] = [];
  for (const call of calls) {
    if (drop.has(call.callID)) continue;
    const replacement = replacing.get(call.callID);
    if (replacement === undefined) next.push(call);
    // A call whose start did not move keeps its place; one that moved is placed again below.
    else if (replacement.startedAt === call.startedAt) {
      next.push(replacement);
      replacing.delete(call.callID);
    }
  }
  if (replacing.size === 0) return next;
  // New calls are few per change and mostly the newest: each goes in by a binary search, not by a
  // merge that compares every call of a 10,000-call list again.
  if (replacing.size > INSERT_ONE_BY_ONE) return mergeSorted([next, [...replacing.values()].sort(byStart)]);
  for (const call of replacing.values()) next.splice(placeOf(next, call), 0, call);
  return next;
};
