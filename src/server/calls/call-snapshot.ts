/** A provider's calls at one moment, serialized once for every reader (list body, ETag, gzip, stream records), and the diff from the moment before. */
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { CallRecord } from '../../contract/call-record.js';
import { asciiJSON } from './ascii-json.js';
import { CALL_FIELD_NAMES, CALL_FIELDS, type WireCallFields } from '../providers/call-fields.js';
import type { ProviderCall } from '../providers/phone-system.js';
import { diffSortedCalls, isEmptyDiff, type CallDiff } from './call-diff.js';

const gzipAsync = promisify(gzip);

/** Whether A and B are one type: the same keys, each optional in both or in neither, each of the same type. */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false;

/** One object type of an intersection's members, as `Same` compares them. */
type Flat<T> = { [K in keyof T]: T[K] };

/** A provider's call on the wire: its fields (times as text) and the provider's ID and name. */
type CallOnTheWire = Flat<WireCallFields & { providerID: string; providerName: string }>;

/**
 * The contract's record, which the compiler holds to be exactly a provider's call on the wire: a
 * field added to one and not the other, or optional in one only, makes the cast below fail to build.
 */
type CheckedCallRecord = Same<CallRecord, CallOnTheWire> extends true ? CallRecord : 'CallRecord (src/contract/call-record.ts) and ProviderCall on the wire differ';

/** The wire record, fields in the spec's order (the provider's ID and name after its call ID); unknown optional fields are left out. */
export const toCallRecord = (call: ProviderCall, providerID: string, providerName: string): CallRecord => {
  const record: Record<string, unknown> = { callID: call.callID, providerCallID: call.providerCallID, providerID, providerName };
  for (const name of CALL_FIELD_NAMES) {
    if (name === 'providerCallID') continue;
    // The spec keeps "missed" for inbound calls.
    const value = name === 'isMissedCall' ? !call.isOutbound && call.isMissedCall : call[name];
    if (value === undefined) continue;
    record[name] = CALL_FIELDS[name].kind === 'time' ? new Date(value as number).toISOString() : value;
  }
  // Sound because the record holds every field of the list (each as its kind says, an optional one when known) and the
  // call's ID, and CheckedCallRecord is the contract's record only while it names exactly those fields.
  return record as CheckedCallRecord;
};

/** Oldest `startedAt` first; the call ID breaks ties so the order is total and stable. */
export const byStartThenID = (a: ProviderCall, b: ProviderCall): number =>
  a.startedAt - b.startedAt || (a.callID < b.callID ? -1 : a.callID > b.callID ? 1 : 0);

export const strongETag = (body: Buffer | string): string =>
  `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;

export interface ProviderIdentity {
  id: string;
  name: string;
}

/**
 * The serialized forms of one list of calls, made when first asked for and shared by every
 * snapshot with the same calls: an unchanged list keeps its ETag (a 304 for pollers) and costs no
 * second serialization or gzip. Each record's JSON is kept per version of a call (its object, which
 * a call keeps while it does not change) and shared by the lists after, so a sync where 5 % changed
 * serializes 5 %, and nothing is copied for the rest. The records are ASCII (`asciiJSON`): one
 * accented name does not make a browser read the whole list as a two-byte string.
 */
class SerializedCalls {
  private callsText: string | undefined;
  private bodyBytes: Buffer | undefined;
  private tag: string | undefined;
  private gzipped: Promise<Buffer> | undefined;

  constructor(
    private readonly calls: readonly ProviderCall[],
    private readonly provider: ProviderIdentity,
    /** Record JSON by version of a call, shared by this provider's lists from one to the next. */
    readonly records: WeakMap<ProviderCall, string>,
  ) {}

  recordJSON(call: ProviderCall): string {
    let json = this.records.get(call);
    if (json === undefined) {
      json = asciiJSON(toCallRecord(call, this.provider.id, this.provider.name));
      this.records.set(call, json);
    }
    return json;
  }

  /** The JSON array of the records, in list order. */
  callsJSON(): string {
    this.callsText ??= `[${this.calls.map((call) => this.recordJSON(call)).join(',')}]`;
    return this.callsText;
  }

  body(): Buffer {
    this.bodyBytes ??= Buffer.from(`{"calls":${this.callsJSON()},"totalCalls":${this.calls.length}}`, 'utf8');
    return this.bodyBytes;
  }

  etag(): string {
    this.tag ??= strongETag(this.body());
    return this.tag;
  }

  gzip(): Promise<Buffer> {
    this.gzipped ??= gzipAsync(this.body());
    return this.gzipped;
  }
}

/** A provider's calls at one moment, and what changed since the snapshot before it. */
export class CallSnapshot {
  private constructor(
    /** Calls in list order. */
    readonly calls: readonly ProviderCall[],
    /** Clock time at which the provider answered. */
    readonly takenAt: number,
    private readonly serialized: SerializedCalls,
  ) {}

  /** No calls, as a provider's first snapshot is compared with when every call in it must be a change. */
  static empty(provider: ProviderIdentity): CallSnapshot {
    return new CallSnapshot([], 0, new SerializedCalls([], provider, new WeakMap()));
  }

  /**
   * The snapshot after `previous` (none for the first one), and the diff from it. An unchanged
   * list shares `previous`'s serialized forms.
   */
  static next(
    previous: CallSnapshot | undefined,
    calls: readonly ProviderCall[],
    takenAt: number,
    provider: ProviderIdentity,
  ): { snapshot: CallSnapshot; diff: CallDiff | undefined } {
    const sorted = [...calls].sort(byStartThenID);
    if (!previous) return { snapshot: new CallSnapshot(sorted, takenAt, new SerializedCalls(sorted, provider, new WeakMap())), diff: undefined };
    const diff = diffSortedCalls(previous.calls, sorted, byStartThenID);
    if (isEmptyDiff(diff)) return { snapshot: new CallSnapshot(previous.calls, takenAt, previous.serialized), diff };
    return { snapshot: new CallSnapshot(sorted, takenAt, new SerializedCalls(sorted, provider, previous.serialized.records)), diff };
  }

  /** The same calls as taken at a later moment (a sync that changed nothing). */
  retaken(takenAt: number): CallSnapshot {
    return new CallSnapshot(this.calls, takenAt, this.serialized);
  }

  /** One call's wire record as JSON, serialized at most once per version of the call. */
  recordJSON(call: ProviderCall): string {
    return this.serialized.recordJSON(call);
  }

  /** The records as a JSON array, for a stream's snapshot event. */
  callsJSON(): string {
    return this.serialized.callsJSON();
  }

  /**
   * The same for every snapshot of the same calls (this one, and those retaken from it when a sync
   * changed nothing): what is made of `callsJSON()` can be kept once under it, for all of them.
   */
  get sameCalls(): object {
    return this.serialized;
  }

  /** The list response's body: `{"calls":[...],"totalCalls":n}`. */
  get body(): Buffer {
    return this.serialized.body();
  }

  get etag(): string {
    return this.serialized.etag();
  }

  gzip(): Promise<Buffer> {
    return this.serialized.gzip();
  }
}
