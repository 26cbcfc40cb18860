/**
 * Each subscriber's state, derived from what the provider tells and nothing else: its subscriber
 * list (registered, active) and its calls. Pure: the board keeps the previous states, and hands
 * them back so a state that goes on keeps the moment it began.
 */
import type { AgentState } from '../../contract/agents.js';
import type { Subscriber } from '../../contract/subscriber.js';
import type { ProviderCall } from './phone-system.js';

export interface AgentStatus {
  subscriberID: string;
  firstName: string;
  lastName: string;
  extension: string;
  state: AgentState;
  /** Epoch ms the state began. */
  since: number;
  /** Ringing or on-call: the call, and whom it is with. */
  callID?: string;
  remoteNumber?: string;
  remoteName?: string;
  isOutbound?: boolean;
}

const isLive = (call: ProviderCall) => call.endedAt === undefined;

/**
 * Whether the subscriber is talking (or dialing out with their own phone connected): an answered
 * call, or an outbound one their device took (`subscriberAnsweredAt`) while the remote party rings.
 */
const isConnected = (call: ProviderCall) => call.answeredAt !== undefined || (call.isOutbound && call.subscriberAnsweredAt !== undefined);

/** When the subscriber's part of a connected call began: dialing out counts, an inbound call from its answer. */
const connectedAt = (call: ProviderCall) =>
  call.isOutbound ? Math.min(call.subscriberAnsweredAt ?? Infinity, call.answeredAt ?? Infinity) : (call.answeredAt as number);

/**
 * The call that sets a subscriber's state among their live ones: the connected call answered last
 * (the one they talk on now; an earlier one is on hold), else the call that rang first.
 */
const rank = (a: ProviderCall, b: ProviderCall): ProviderCall => {
  const aConnected = isConnected(a);
  if (aConnected !== isConnected(b)) return aConnected ? a : b;
  if (aConnected) return connectedAt(a) >= connectedAt(b) ? a : b;
  return a.startedAt <= b.startedAt ? a : b;
};

/** Each subscriber's live call that sets their state. */
export const currentCalls = (calls: readonly ProviderCall[]): Map<string, ProviderCall> => {
  const current = new Map<string, ProviderCall>();
  for (const call of calls) {
    if (!isLive(call) || call.subscriberID === undefined) continue;
    const held = current.get(call.subscriberID);
    current.set(call.subscriberID, held ? rank(held, call) : call);
  }
  return current;
};

/**
 * A live call decides, whatever the phone's registration says (a registration may lapse during a
 * call that goes on); without one, a disabled account is inactive, an unregistered phone offline.
 * A provider that cannot tell registration (`null`) counts as registered.
 */
const stateOf = (subscriber: Subscriber, call: ProviderCall | undefined): AgentState => {
  if (call) return isConnected(call) ? 'on-call' : 'ringing';
  if (!subscriber.active) return 'inactive';
  if (subscriber.registered === false) return 'offline';
  return 'available';
};

/**
 * When a new state began. On a call: from the call's own times where they tell (its answer, their
 * device taking an outbound call); a ring from the call's start, or from the last look if that was
 * later (it did not ring them then: a caller who waited in a queue first). Free again after a
 * call: that call's end. Otherwise (a registration that changed): when the service saw it, `now`.
 */
const sinceOf = (state: AgentState, call: ProviderCall | undefined, previous: Board | undefined, lastCall: ProviderCall | undefined, now: number): number => {
  if (call && state === 'on-call') return connectedAt(call);
  if (call) return Math.min(now, Math.max(call.startedAt, previous?.at ?? -Infinity));
  if (lastCall?.endedAt !== undefined) return Math.min(now, lastCall.endedAt);
  return now;
};

/** A derivation's result, and when it was made. */
export interface Board {
  at: number;
  agents: ReadonlyMap<string, AgentStatus>;
}

/**
 * The state of every subscriber at `now`. `previous` is the last derivation (none on the first
 * look), `calls` the provider's calls as listed: live ones, and those that ended recently, which
 * tell when a subscriber became free.
 */
export const deriveAgents = (
  subscribers: readonly Subscriber[],
  calls: readonly ProviderCall[],
  previous: Board | undefined,
  now: number,
): Board => {
  // No subscriber, no state: the calls (10,000 at a large center) are not read at every change for nothing.
  if (subscribers.length === 0) return { at: now, agents: new Map() };
  const current = currentCalls(calls);
  let callsByID: Map<string, ProviderCall> | undefined;
  const callOfID = (callID: string | undefined) => (callID === undefined ? undefined : (callsByID ??= new Map(calls.map((call) => [call.callID, call]))).get(callID));
  const agents = new Map<string, AgentStatus>();
  for (const subscriber of subscribers) {
    const subscriberID = subscriber.providerSubscriberID;
    const call = current.get(subscriberID);
    const state = stateOf(subscriber, call);
    const was = previous?.agents.get(subscriberID);
    const goesOn = was !== undefined && was.state === state && was.callID === call?.callID;
    const status: AgentStatus = {
      subscriberID,
      firstName: subscriber.firstName,
      lastName: subscriber.lastName,
      extension: subscriber.extension,
      state,
      since: goesOn ? was.since : sinceOf(state, call, previous, call ? undefined : callOfID(was?.callID), now),
    };
    if (call) {
      status.callID = call.callID;
      status.remoteNumber = call.remoteNumber;
      if (call.remoteName !== undefined) status.remoteName = call.remoteName;
      status.isOutbound = call.isOutbound;
    }
    agents.set(subscriberID, status);
  }
  return { at: now, agents };
};
