/**
 * The calls the service knows of one provider, as lists and pushed updates tell of them: a call
 * that leaves the provider's list without an end is ended by the service (missed when it was
 * inbound and never answered), every ended call stays listed for `keepEndedMs` after its end, and
 * an update pushed by the provider takes effect at once, ordered by its source's sequence. A list
 * is the reconciliation: it catches what no update told, and never undoes an update newer than it.
 */
import { sameCall } from '../providers/call-fields.js';
import type { CallUpdate, ProviderCall } from '../providers/phone-system.js';
import { callFromUpdate, withEnd, withKnownFacts, withUpdate } from './call-endings.js';

export interface KnownCallsOptions {
  /** How long an ended call stays listed after its end, whether the provider still lists it or not. */
  keepEndedMs: number;
  /**
   * Past this long between two good lists the service was not watching (a provider outage, a
   * restart): a call that left meanwhile ended at the last list that saw it, not at the one that noticed.
   */
  blindAfterMs: number;
}

/** A call as the service last knew it, and whether the service (not the provider) ended it. */
export interface KnownCall {
  call: ProviderCall;
  endedByService: boolean;
}

/** A known call and what the service keeps about it, changed in place as lists and updates tell. */
class Entry implements KnownCall {
  /** Clock time of the last pushed update applied to it. */
  pushedAt: number | undefined = undefined;
  /** The highest sequence applied per update source (a call leg, say). */
  sequences: Map<string, number> | undefined = undefined;
  /** The number of the last list that showed it. */
  list = 0;
  /** The version of the call the last view gave. */
  viewed: ProviderCall | undefined = undefined;

  constructor(
    public call: ProviderCall,
    public endedByService: boolean,
    /** Whether a list has shown it: one known only from updates is not ended by a list for a while. */
    public listed: boolean,
  ) {}
}

/** What one sync makes of what the provider told. */
export interface CallEndingsView {
  /** The list to serve: live calls, and those that ended less than `keepEndedMs` ago. */
  listed: ProviderCall[];
  /** Every call the service knows of at this sync, listed or not: what the journal must hold. */
  known: ProviderCall[];
  /** IDs of the known calls whose end the service set. */
  endedByService: ReadonlySet<string>;
  /** The views are numbered from 1: the one before this is `number - 1`. */
  number: number;
  /**
   * The known calls whose version (or whose end's author) is new since the view before this one
   * (the first view: every call), in the order of `known`.
   */
  changed: ProviderCall[];
}

/** What became of a batch of pushed updates. */
export interface PushOutcome {
  /** Updates that changed a call. */
  applied: number;
  /** Seen already (a repeated sequence), older than one applied, or about a call that is over and gone. */
  ignored: number;
  /** About calls not known yet and too thin to make one: held until a list shows the call. */
  held: number;
}

/** A call known only from updates is not ended by lists that miss it for this long (a provider's list may lag its events). */
export const PUSH_GRACE_MS = 10_000;
/** Updates older than this (by the provider's clock) are not applied: a replay, not news. */
export const MAX_UPDATE_AGE_MS = 15 * 60_000;
/** Calls forgotten less than this long ago ignore updates: a replayed callback cannot bring one back. */
const FORGET_AFTER_MS = 60 * 60_000;
const MAX_FORGOTTEN = 100_000;
/** Updates held for calls no list has shown yet: how many, and for how long. */
const MAX_HELD = 10_000;
const HOLD_MS = 60_000;

export class KnownCalls {
  private readonly known = new Map<string, Entry>();
  /** Lists taken in so far. */
  private lists = 0;
  /** Views given so far. */
  private views = 0;
  /** Clock time of the last list, or of the journal's last sync after a restart. */
  private lastListAt: number | undefined;
  /** Call IDs that left the known set, with when: updates for them are ignored. */
  private readonly forgotten = new Map<string, number>();
  /** Updates about calls not known yet, by call ID, with when they were held. */
  private readonly held = new Map<string, { at: number; updates: CallUpdate[] }>();

  constructor(private readonly options: KnownCallsOptions) {}

  /**
   * Takes back what the service knew before a restart (the journal's open and recently ended
   * calls, and the time of its last sync); only before the first list.
   */
  restore(calls: readonly KnownCall[], lastSyncAt: number | undefined): void {
    if (this.lastListAt !== undefined) return;
    // What updates told since this run began is newer than the journal.
    for (const { call, endedByService } of calls) if (!this.known.has(call.callID)) this.known.set(call.callID, new Entry(call, endedByService, true));
    this.lastListAt = lastSyncAt;
  }

  /** Whether a list has been taken in (or the journal's last sync restored). */
  get hasListed(): boolean {
    return this.lastListAt !== undefined;
  }

  /**
   * The service's view at `at` of the calls a list reported; the list was asked for at
   * `listStartedAt`, and calls updated by a push since then keep the pushed version.
   */
  next(provided: readonly ProviderCall[], at: number, listStartedAt = at): CallEndingsView {
    const newer = (entry: Entry) => entry.pushedAt !== undefined && entry.pushedAt >= listStartedAt;
    const list = (this.lists += 1);
    // Taken in place: a call the list shows as the service knew it keeps its very object, so what
    // is compared after (the snapshot's diff, the journal's) sees it unchanged at a glance.
    for (const call of provided) {
      let entry = this.known.get(call.callID);
      // A list that names a call twice: its first copy counts.
      if (entry?.list === list) continue;
      if (!entry) {
        entry = new Entry(withKnownFacts(call, undefined), false, true);
        this.known.set(call.callID, entry);
        this.applyHeld(call.callID, entry, at);
      } else if (!newer(entry)) {
        const merged = withKnownFacts(call, entry.call, entry.endedByService);
        if (!sameCall(merged, entry.call)) entry.call = merged;
        // The service's end given up (the provider lists the call again): news for the journal, whatever the fields.
        if (entry.endedByService) entry.viewed = undefined;
        entry.endedByService = false;
        this.applyHeld(call.callID, entry, at);
      }
      entry.listed = true;
      entry.list = list;
    }
    const endAt = this.lastListAt !== undefined && at - this.lastListAt > this.options.blindAfterMs ? this.lastListAt : at;
    for (const [callID, was] of this.known) {
      if (was.list === list) continue;
      const pushedOnly = !was.listed && was.pushedAt !== undefined && at - was.pushedAt < PUSH_GRACE_MS;
      if (newer(was) || pushedOnly) continue;
      // Ended now: known for this sync at least, so the journal gets its end even when it is listed no longer.
      if (was.call.endedAt === undefined) {
        was.call = withEnd(was.call, endAt);
        was.endedByService = true;
      } else if (!this.isListed(was.call, at)) {
        this.known.delete(callID);
        this.forget(callID, at);
      }
    }
    this.lastListAt = at;
    this.pruneHeld(at);
    return this.view(at);
  }

  /** Applies updates pushed by the provider, received at `at`. */
  push(updates: readonly CallUpdate[], at: number): PushOutcome {
    let applied = 0;
    let ignored = 0;
    let held = 0;
    for (const update of updates) {
      const result = this.pushOne(update, at);
      if (result === 'applied') applied += 1;
      else if (result === 'held') held += 1;
      else if (result === 'ignored') ignored += 1;
    }
    return { applied, ignored, held };
  }

  private pushOne(update: CallUpdate, at: number): 'applied' | 'unchanged' | 'ignored' | 'held' {
    if (at - update.at > MAX_UPDATE_AGE_MS || this.forgotten.has(update.callID)) return 'ignored';
    const was = this.known.get(update.callID);
    if (!was) {
      const call = callFromUpdate(update);
      if (!call) return this.hold(update, at);
      const entry = new Entry(call, false, false);
      entry.pushedAt = at;
      if (!this.takeSequence(entry, update)) return 'ignored';
      this.applyHeld(update.callID, entry, at);
      this.known.set(update.callID, entry);
      return 'applied';
    }
    if (!this.takeSequence(was, update)) return 'ignored';
    const call = withUpdate(was.call, update, was.endedByService);
    was.pushedAt = at;
    if (sameCall(call, was.call)) return 'unchanged';
    was.call = call;
    was.endedByService = was.endedByService && update.fields.endedAt === undefined;
    return 'applied';
  }

  /** Records the update's sequence; false when its source already sent this one or a later one. */
  private takeSequence(entry: Entry, update: CallUpdate): boolean {
    if (update.source === undefined || update.sequence === undefined) return true;
    const seen = entry.sequences?.get(update.source);
    if (seen !== undefined && update.sequence <= seen) return false;
    entry.sequences = new Map(entry.sequences ?? []).set(update.source, update.sequence);
    return true;
  }

  private hold(update: CallUpdate, at: number): 'held' | 'ignored' {
    const held = this.held.get(update.callID);
    if (held) held.updates.push(update);
    else if (this.held.size >= MAX_HELD) return 'ignored';
    else this.held.set(update.callID, { at, updates: [update] });
    return 'held';
  }

  /** Applies, in order, the updates held for a call that just became known. */
  private applyHeld(callID: string, entry: Entry, at: number): void {
    const held = this.held.get(callID);
    if (!held) return;
    this.held.delete(callID);
    for (const update of [...held.updates].sort((a, b) => a.at - b.at || (a.sequence ?? 0) - (b.sequence ?? 0))) {
      if (!this.takeSequence(entry, update)) continue;
      entry.call = withUpdate(entry.call, update, entry.endedByService);
      entry.endedByService = entry.endedByService && update.fields.endedAt === undefined;
      entry.pushedAt = at;
    }
  }

  private pruneHeld(at: number): void {
    for (const [callID, held] of this.held) if (at - held.at >= HOLD_MS) this.held.delete(callID);
  }

  private forget(callID: string, at: number): void {
    this.forgotten.delete(callID);
    this.forgotten.set(callID, at);
    for (const [id, when] of this.forgotten) {
      if (this.forgotten.size <= MAX_FORGOTTEN && at - when < FORGET_AFTER_MS) break;
      this.forgotten.delete(id);
    }
  }

  private isListed(call: ProviderCall, at: number): boolean {
    return call.endedAt === undefined || at - call.endedAt < this.options.keepEndedMs;
  }

  /**
   * The calls known now: those to list at `at`, and every one the journal must hold, with those
   * whose version is new since the last view (what the journal lacks, when it holds that view).
   */
  view(at: number): CallEndingsView {
    const listed: ProviderCall[] = [];
    const known: ProviderCall[] = [];
    const changed: ProviderCall[] = [];
    const endedByService = new Set<string>();
    for (const entry of this.known.values()) {
      const { call } = entry;
      known.push(call);
      if (this.isListed(call, at)) listed.push(call);
      if (entry.endedByService) endedByService.add(call.callID);
      if (entry.viewed !== call) changed.push(call);
      entry.viewed = call;
    }
    this.views += 1;
    return { listed, known, endedByService, number: this.views, changed };
  }
}
