/**
 * The end of a call, owned by the service whatever the provider: a call that leaves the
 * provider's list without an end is ended by the service (missed when it was inbound and never
 * answered), and every ended call stays listed for `keepEndedMs` after its end.
 */
import type { ProviderCall } from '../providers/phone-system.js';

export interface CallEndingsOptions {
  /** How long an ended call stays listed after its end, whether the provider still lists it or not. */
  keepEndedMs: number;
  /**
   * Past this long between two good syncs the service was not watching (a provider outage, a
   * restart): a call that left meanwhile ended at the last sync that saw it, not at the one that noticed.
   */
  blindAfterMs: number;
}

/** A call as the service last knew it, and whether the service (not the provider) ended it. */
export interface KnownCall {
  call: ProviderCall;
  endedByService: boolean;
}

/** What one sync makes of the provider's list. */
export interface CallEndingsView {
  /** The list to serve: live calls, and those that ended less than `keepEndedMs` ago. */
  listed: ProviderCall[];
  /** Every call the service knows of at this sync, listed or not: what the journal must hold. */
  known: ProviderCall[];
  /** IDs of the known calls whose end the service set. */
  endedByService: ReadonlySet<string>;
}

/** Inbound and never answered: the spec's missed call. */
export const isMissed = (call: Pick<ProviderCall, 'isOutbound' | 'answeredAt'>): boolean => !call.isOutbound && call.answeredAt === undefined;

/** The provider's version, keeping an answer the service saw before if the provider no longer reports it. */
const withAnswerKept = (call: ProviderCall, before: ProviderCall | undefined): ProviderCall =>
  call.answeredAt === undefined && before?.answeredAt !== undefined ? { ...call, answeredAt: before.answeredAt } : call;

const withEnd = (call: ProviderCall, at: number): ProviderCall => ({
  ...call,
  endedAt: Math.max(at, call.answeredAt ?? call.startedAt),
  isMissedCall: call.isMissedCall || isMissed(call),
});

export class CallEndings {
  private known = new Map<string, KnownCall>();
  /** Clock time of the last sync, or of the journal's last one after a restart. */
  private lastSyncAt: number | undefined;

  constructor(private readonly options: CallEndingsOptions) {}

  /**
   * Takes back what the service knew before a restart (the journal's open and recently ended
   * calls, and the time of its last sync); only before the first sync.
   */
  restore(calls: readonly KnownCall[], lastSyncAt: number | undefined): void {
    if (this.lastSyncAt !== undefined) return;
    this.known = new Map(calls.map((known) => [known.call.callID, known]));
    this.lastSyncAt = lastSyncAt;
  }

  /** The service's view at `at` of the calls the provider listed then. */
  next(provided: readonly ProviderCall[], at: number): CallEndingsView {
    const next = new Map<string, KnownCall>();
    for (const call of provided) next.set(call.callID, { call: withAnswerKept(call, this.known.get(call.callID)?.call), endedByService: false });
    const endAt = this.lastSyncAt !== undefined && at - this.lastSyncAt > this.options.blindAfterMs ? this.lastSyncAt : at;
    for (const [callID, was] of this.known) {
      if (next.has(callID)) continue;
      // Ended now: known for this sync at least, so the journal gets its end even when it is listed no longer.
      if (was.call.endedAt === undefined) next.set(callID, { call: withEnd(was.call, endAt), endedByService: true });
      else if (this.isListed(was.call, at)) next.set(callID, was);
    }
    this.known = next;
    this.lastSyncAt = at;
    return this.view(at);
  }

  private isListed(call: ProviderCall, at: number): boolean {
    return call.endedAt === undefined || at - call.endedAt < this.options.keepEndedMs;
  }

  private view(at: number): CallEndingsView {
    const listed: ProviderCall[] = [];
    const known: ProviderCall[] = [];
    const endedByService = new Set<string>();
    for (const { call, endedByService: byService } of this.known.values()) {
      known.push(call);
      if (this.isListed(call, at)) listed.push(call);
      if (byService) endedByService.add(call.callID);
    }
    return { listed, known, endedByService };
  }
}
