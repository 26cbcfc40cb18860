/** The one interface every provider (phone system) implements, and the errors it may raise. */
import type { NextPlacedCall, SimulatorFailure } from '../../contract/simulator-control.js';
import type { Subscriber } from '../../contract/subscriber.js';

/**
 * A call as a provider knows it. Times are epoch milliseconds; the service adds the provider's
 * ID and name and formats the record for the wire.
 */
export interface ProviderCall {
  callID: string;
  providerCallID: string;
  isOutbound: boolean;
  isMissedCall: boolean;
  /** Digits only; empty when the remote party withheld its number. */
  remoteNumber: string;
  remoteName?: string;
  startedAt: number;
  answeredAt?: number;
  endedAt?: number;
  chosenContactID?: string;
  subscriberID?: string;
  subscriberFirstName?: string;
  subscriberLastName?: string;
  subscriberEmail?: string;
  subscriberExtension?: string;
  subscriberNumber?: string;
}

export interface PlaceCallRequest {
  providerSubscriberID: string;
  remoteNumber: string;
  providerSubscriberExtension?: string;
  providerSubscriberNumber?: string;
}

/**
 * A stretch of the past to fill into the call journal (epoch ms): the calls that ended in
 * [from, to), leaving out any that started before `since`, where the journal's history begins.
 */
export interface PastRange {
  since: number;
  from: number;
  to: number;
}

/** One bounded batch of past calls, in the order they ended. */
export interface PastCalls {
  calls: ProviderCall[];
  /** Every call of the range that ended before this instant is in this batch or an earlier one. */
  through: number;
}

export interface PhoneSystem {
  /** Live calls, plus recently ended ones where the provider still reports them (with `endedAt`). */
  listCalls(signal: AbortSignal): Promise<ProviderCall[]>;
  /** Resolves once the provider accepted the call; rejects with SubscriberRejection or ProviderFailure. */
  placeCall(request: PlaceCallRequest, signal: AbortSignal): Promise<void>;
  listSubscribers(signal: AbortSignal): Promise<Subscriber[]>;
  /**
   * Optional: the provider's past, for a journal that does not hold it yet. Yields batches as it
   * goes, oldest first, the last one `through` the range's end; stops when `signal` aborts. The
   * calls it yields and those `listCalls` reports meet without a gap or an overlap.
   */
  backfill?(range: PastRange, signal: AbortSignal): AsyncIterable<PastCalls>;
  /** Optional: fault injection and call scripting, for outage drills and tests, where the config enables it. */
  control?: PhoneSystemControl;
  /**
   * Optional: calls `onChange` whenever its calls may have changed, so the service syncs at once
   * instead of at its next tick; returns a function that stops watching. A provider that cannot
   * tell is polled.
   */
  watchChanges?(onChange: () => void): () => void;
  close(): Promise<void>;
}

/**
 * What a drill may ask of a phone system that can be told how to behave. Each resolves once the
 * phone system took it (a remote one answers over the network, and may fail as any request).
 */
export interface PhoneSystemControl {
  /** While set, every request fails this way (or stalls until its deadline); null recovers. */
  setFailure(mode: SimulatorFailure['mode']): Promise<void>;
  /** Fixes the course of the next placed call; whatever the script leaves out is drawn as usual. */
  scriptNextPlacedCall(script: NextPlacedCall): Promise<void>;
}

export type SubscriberRejectionCode =
  | 'subscriber_not_found'
  | 'subscriber_not_registered'
  | 'subscriber_inactive'
  | 'subscriber_mismatch';

/** The provider refused the call because of the subscriber (spec 4.2 rule 2). */
export class SubscriberRejection extends Error {
  constructor(
    readonly code: SubscriberRejectionCode,
    message: string,
  ) {
    super(message);
    this.name = 'SubscriberRejection';
  }
}

export type ProviderFailureKind = 'unavailable' | 'error' | 'timeout';

/** The provider could not be reached, answered with an error, or took too long. */
export class ProviderFailure extends Error {
  constructor(
    readonly kind: ProviderFailureKind,
    message: string,
    /** The configured name of the provider that failed, once the service knows which one it was. */
    readonly providerName?: string,
  ) {
    super(message);
    this.name = 'ProviderFailure';
  }
}
