/**
 * What one sync must write to the journal: the calls that are new or changed since the last
 * written snapshot, and the calls that vanished without an end time (ghosts, closed at `at`).
 */
import type { ProviderCall } from '../providers/phone-system.js';

export interface JournalBatch {
  /** Clock time of the snapshot. */
  at: number;
  upserts: ProviderCall[];
  /** Call IDs to close at `at` and mark closed by sync. */
  vanished: string[];
  /**
   * The first batch of a run (or after a failed write) carries every call, and tells the store to
   * close what it still holds open but the provider no longer lists.
   */
  complete: boolean;
}

const FIELDS: readonly (keyof ProviderCall)[] = [
  'providerCallID',
  'isOutbound',
  'isMissedCall',
  'remoteNumber',
  'remoteName',
  'startedAt',
  'answeredAt',
  'endedAt',
  'chosenContactID',
  'subscriberID',
  'subscriberFirstName',
  'subscriberLastName',
  'subscriberEmail',
  'subscriberExtension',
  'subscriberNumber',
];

const sameCall = (a: ProviderCall, b: ProviderCall) => FIELDS.every((field) => a[field] === b[field]);

export const journalBatch = (written: readonly ProviderCall[] | undefined, current: readonly ProviderCall[], at: number): JournalBatch => {
  if (!written) return { at, upserts: [...current], vanished: [], complete: true };
  const before = new Map(written.map((call) => [call.callID, call]));
  const upserts: ProviderCall[] = [];
  for (const call of current) {
    const previous = before.get(call.callID);
    before.delete(call.callID);
    if (!previous || !sameCall(previous, call)) upserts.push(call);
  }
  const vanished = [...before.values()].filter((call) => call.endedAt === undefined).map((call) => call.callID);
  return { at, upserts, vanished, complete: false };
};
