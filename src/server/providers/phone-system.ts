/** The one interface every provider (phone system) implements, and the errors it may raise. */
import type { AgentState } from '../../contract/agents.js';
import type { NextPlacedCall, SimulatorFailure } from '../../contract/simulator-control.js';
import type { IceServer, SoftphoneCredentials } from '../../contract/softphone.js';
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
  /**
   * Outbound: when the subscriber's own device was connected: at the start for a call they dialed
   * themselves (or one the provider dials straight to the remote number), when they picked up for a
   * click-to-call that rang them first. Absent while their device rings.
   */
  subscriberAnsweredAt?: number;
  /** The service's own record of an intervention: the name of the token that ended the call. */
  endedBy?: string;
  /** Inbound: the number the caller dialed (digits, or an extension as dialed), where the phone system tells it. */
  calledNumber?: string;
  /** The configured queue the call was offered to, kept from the first one it was known in (see `queue-directory.ts`). */
  queueID?: string;
  queueName?: string;
}

/**
 * What a provider told of one call by itself (a status callback, a socket event, the answer to a
 * placed call), rather than in a list: the fields it knows now, at the provider's time `at`.
 * Updates of one `source` (a call leg, say) are numbered by `sequence`: one already applied, or
 * older, is ignored, so a repeated delivery changes nothing.
 */
export interface CallUpdate {
  /** The call it belongs to (one call may be several legs at the provider). */
  callID: string;
  at: number;
  source?: string;
  sequence?: number;
  /** The fields it tells; absent ones stay as they were. */
  fields: Partial<Omit<ProviderCall, 'callID'>>;
  /**
   * What to assume of a call the service does not know yet, under `fields` (an agent's leg implies
   * an inbound call, say). An update makes the call when the two give `providerCallID`,
   * `isOutbound`, `remoteNumber` and `startedAt`; otherwise it waits for a list to show the call.
   */
  defaults?: Partial<Omit<ProviderCall, 'callID'>>;
}

/** Whether the connection a provider pushes its updates over is open; `detail` says, in a sentence, what a dropped one means. */
export type StreamHealth = { connected: true } | { connected: false; detail: string };

/** A request a provider sent to the service's webhook, as received. */
export interface WebhookRequest {
  /** The path and query string, as the request line gave them. */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  /** The raw body. */
  body: string;
}

/** Why a webhook request was not taken: not signed by the provider, or not a request it sends. */
export class WebhookRefused extends Error {
  constructor(
    readonly reason: 'unsigned' | 'forged' | 'malformed',
    message: string,
  ) {
    super(message);
    this.name = 'WebhookRefused';
  }
}

/** Updates a provider pushes to the service over HTTP (at `/v1/webhooks/<its type>/...`): any instance of a cluster may receive them. */
export interface ProviderWebhook {
  /** Checks the request is the provider's own (its signature) and reads the updates it carries; throws WebhookRefused. */
  receive(request: WebhookRequest): CallUpdate[];
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

/** One change of an agent's state in the past, as the agent board would have derived it then. */
export interface PastAgentState {
  subscriberID: string;
  /** Epoch ms; the state holds until the agent's next change. */
  at: number;
  state: AgentState;
  firstName: string;
  lastName: string;
  extension: string;
}

/** One bounded batch of past calls, in the order they ended. */
export interface PastCalls {
  calls: ProviderCall[];
  /** Every call of the range that ended before this instant is in this batch or an earlier one. */
  through: number;
  /**
   * Optional, where the provider can tell its agents' past presence: their state changes from the
   * previous batch's `through` (the range's `from` for the first) up to this one's, in order. The
   * batch that reaches past `from` first opens with every agent's state at `from`, so a stretch
   * never leans on the stretch before it.
   */
  agentStates?: PastAgentState[];
}

export interface PhoneSystem {
  /** Live calls, plus recently ended ones where the provider still reports them (with `endedAt`). */
  listCalls(signal: AbortSignal): Promise<ProviderCall[]>;
  /**
   * Resolves once the provider accepted the call, with what the provider told of the new call if
   * anything (taken in as pushed updates); rejects with SubscriberRejection or ProviderFailure.
   */
  placeCall(request: PlaceCallRequest, signal: AbortSignal): Promise<CallUpdate[] | void>;
  listSubscribers(signal: AbortSignal): Promise<Subscriber[]>;
  /**
   * Optional: ends a live call, ringing or answered (a supervisor's intervention). Resolves once the
   * provider took the request, with what it told of the call if anything (taken in as pushed
   * updates); rejects with CallNotEndable or ProviderFailure. A provider without it cannot end calls.
   */
  endCall?(call: ProviderCall, signal: AbortSignal): Promise<CallUpdate[] | void>;
  /**
   * Optional: the provider's past, for a journal that does not hold it yet. Yields batches as it
   * goes, oldest first, the last one `through` the range's end; stops when `signal` aborts. The
   * calls it yields and those `listCalls` reports meet without a gap or an overlap. A provider
   * that knows its agents' past presence tells their states too (`PastCalls.agentStates`).
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
  /**
   * Optional: updates from a connection the service opens to the provider (an event socket), only
   * on the instance that syncs it; returns a function that closes it. Lists remain the reconciliation.
   * `onHealth` hears when the connection drops (the provider's calls are then polled) and reopens.
   */
  streamUpdates?(onUpdates: (updates: CallUpdate[]) => void, onHealth?: (health: StreamHealth) => void): () => void;
  /** Optional: updates the provider pushes to the service's webhook. */
  webhook?: ProviderWebhook;
  /** Optional: a subscriber's browser as their phone (SIP over WebSocket, WebRTC media). */
  softphone?: SoftphoneAccess;
  /** Optional: a supervisor's silent listening to a live call. */
  listening?: CallListening;
  close(): Promise<void>;
}

export interface SoftphoneAccess {
  /**
   * Credentials for the subscriber's browser, good until `expiresAt`, made without asking the phone
   * system (it checks them against a secret it shares). Throws SubscriberRejection for a subscriber
   * it does not know, or one not active.
   */
  credentials(providerSubscriberID: string, now: number): SoftphoneCredentials;
}

/** A listener's start: an SDP offer of both parties' audio, send-only, for a browser to answer. */
export interface ListenerOffer {
  listenID: string;
  sdp: string;
  iceServers: IceServer[];
}

/**
 * Forks a live call's audio, both parties, to one more receiver who is not heard (a silent
 * listener). Each method rejects with CallNotListenable or ProviderFailure.
 */
export interface CallListening {
  start(call: ProviderCall, signal: AbortSignal): Promise<ListenerOffer>;
  /** The listening browser's SDP answer: its audio starts flowing. */
  answer(call: ProviderCall, listenID: string, sdp: string, signal: AbortSignal): Promise<void>;
  /** Stops it; a listener of a call that has ended is stopped already, and resolves. */
  stop(call: ProviderCall, listenID: string, signal: AbortSignal): Promise<void>;
}

/** The call's media cannot be listened to: it has ended, it still rings, or the listener is unknown. */
export class CallNotListenable extends Error {
  constructor(
    readonly reason: 'ended' | 'not_answered' | 'no_listener' | 'refused',
    message: string,
  ) {
    super(message);
    this.name = 'CallNotListenable';
  }
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
  | 'subscriber_mismatch'
  | 'subscriber_unreachable';

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

/** The provider refused to dial the remote number (invalid, unreachable or not allowed for the account). */
export class RemoteNumberRejection extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RemoteNumberRejection';
  }
}

/** The provider will not end this call: it is over already, or in a state the provider cannot end. */
export class CallNotEndable extends Error {
  constructor(
    readonly reason: 'ended' | 'refused',
    message: string,
  ) {
    super(message);
    this.name = 'CallNotEndable';
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
    /** The provider asked not to be asked again before this long (a rate limit). */
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'ProviderFailure';
  }
}
