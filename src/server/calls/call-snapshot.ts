/** A provider's calls at one moment, serialized once for every reader: body, ETag and gzip. */
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { CallRecord } from '../../contract/call-record.js';
import type { ProviderCall } from '../providers/phone-system.js';

const gzipAsync = promisify(gzip);

const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());

/** The wire record, fields in the spec's order; unknown optional fields are left out. */
export const toCallRecord = (call: ProviderCall, providerID: string, providerName: string): CallRecord => {
  const record: CallRecord = {
    callID: call.callID,
    providerCallID: call.providerCallID,
    providerID,
    providerName,
    isOutbound: call.isOutbound,
    isMissedCall: call.isOutbound ? false : call.isMissedCall,
    remoteNumber: call.remoteNumber,
    remoteName: call.remoteName,
    startedAt: new Date(call.startedAt).toISOString(),
    answeredAt: iso(call.answeredAt),
    endedAt: iso(call.endedAt),
    chosenContactID: call.chosenContactID,
    subscriberID: call.subscriberID,
    subscriberFirstName: call.subscriberFirstName,
    subscriberLastName: call.subscriberLastName,
    subscriberEmail: call.subscriberEmail,
    subscriberExtension: call.subscriberExtension,
    subscriberNumber: call.subscriberNumber,
  };
  for (const key of Object.keys(record) as (keyof CallRecord)[]) if (record[key] === undefined) delete record[key];
  return record;
};

/** Oldest `startedAt` first; the call ID breaks ties so the order is total and stable. */
export const byStartThenID = (a: ProviderCall, b: ProviderCall): number =>
  a.startedAt - b.startedAt || (a.callID < b.callID ? -1 : a.callID > b.callID ? 1 : 0);

export const strongETag = (body: Buffer | string): string =>
  `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;

export class CallSnapshot {
  private gzipped: Promise<Buffer> | undefined;

  private constructor(
    /** Calls in list order. */
    readonly calls: readonly ProviderCall[],
    /** Clock time at which the provider answered. */
    readonly takenAt: number,
    readonly body: Buffer,
    readonly etag: string,
  ) {}

  /**
   * Serializes the calls once. When the bytes equal `previous`'s, its ETag and compressed body
   * are kept, so an unchanged list stays a 304 for pollers and costs no second gzip.
   */
  static build(
    calls: readonly ProviderCall[],
    takenAt: number,
    provider: { id: string; name: string },
    previous?: CallSnapshot,
  ): CallSnapshot {
    const sorted = [...calls].sort(byStartThenID);
    const records = sorted.map((call) => toCallRecord(call, provider.id, provider.name));
    const body = Buffer.from(JSON.stringify({ calls: records, totalCalls: records.length }), 'utf8');
    if (previous?.body.equals(body)) {
      const same = new CallSnapshot(sorted, takenAt, previous.body, previous.etag);
      same.gzipped = previous.gzipped;
      return same;
    }
    return new CallSnapshot(sorted, takenAt, body, strongETag(body));
  }

  gzip(): Promise<Buffer> {
    this.gzipped ??= gzipAsync(this.body);
    return this.gzipped;
  }
}
