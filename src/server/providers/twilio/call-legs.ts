/**
 * Twilio's legs as Callboard's calls. Twilio lists each leg as a Call resource: a click-to-call or
 * an inbound call dialed to an agent is a parent leg plus child legs (`parent_call_sid`). One
 * Callboard call per parent, answered when the leg that matters is: the agent's leg for an
 * inbound call (Twilio answers the parent itself to run the number's TwiML), the remote party's
 * for a click-to-call. An inbound call tells the number dialed (its `to`) and, while it waits in a
 * Twilio queue (`<Enqueue>`), that queue.
 */
import { QueueDirectory, type QueueFields } from '../../queues/queue-directory.js';
import { subscriberFieldsOf } from '../agent-person.js';
import type { ProviderCall } from '../phone-system.js';
import { type AgentDirectory, type TwilioAgent, digitsOf } from './agent-directory.js';
import { LIVE_STATUSES, type TwilioCall, type TwilioCallStatus } from './twilio-client.js';

/** Epoch ms of Twilio's RFC 2822 time (`Tue, 31 Aug 2010 20:36:28 +0000`); undefined for none or nonsense. */
export const parseTwilioTime = (text: string | null | undefined): number | undefined => {
  if (!text) return undefined;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : ms;
};

export const isLive = (status: TwilioCallStatus): boolean => (LIVE_STATUSES as readonly string[]).includes(status);

/**
 * What a parent leg is, from its direction and addresses: an inbound call; a click-to-call that rings
 * an agent's device first (two-step); one dialed straight to the remote number from an agent's own
 * number (direct); or an outbound call of no agent's.
 */
export type CallKind =
  { kind: 'inbound' } | { kind: 'two-step'; agent: TwilioAgent } | { kind: 'direct'; agent: TwilioAgent } | { kind: 'outbound' };

export const kindOf = (
  direction: string | null | undefined,
  from: string | null | undefined,
  to: string | null | undefined,
  agents: AgentDirectory,
): CallKind => {
  if (direction === 'inbound' || direction === 'trunking-originating') return { kind: 'inbound' };
  const rung = agents.byDevice(to);
  if (rung) return { kind: 'two-step', agent: rung };
  const caller = agents.byNumber(from);
  return caller ? { kind: 'direct', agent: caller } : { kind: 'outbound' };
};

/**
 * When a leg was answered, as far as the list tells: a completed leg's end less its duration; a
 * leg in progress was answered by `seenAt` at the latest (the service keeps the earliest it saw).
 */
const answeredAt = (leg: TwilioCall | undefined, seenAt: number): number | undefined => {
  if (!leg) return undefined;
  if (leg.status === 'in-progress') return seenAt;
  if (leg.status !== 'completed') return undefined;
  const end = parseTwilioTime(leg.end_time) ?? parseTwilioTime(leg.date_updated);
  const seconds = Number(leg.duration);
  return end === undefined || !Number.isFinite(seconds) ? undefined : end - seconds * 1000;
};

const earliest = (times: (number | undefined)[]): number | undefined => {
  const known = times.filter((time): time is number => time !== undefined);
  return known.length ? Math.min(...known) : undefined;
};

/** Where inbound calls went: the configured queues, and the Twilio queue (its friendly name) each waiting call is a member of, by call SID. */
export interface QueuePlaces {
  directory: QueueDirectory;
  members: ReadonlyMap<string, string>;
}

const NO_QUEUES: QueuePlaces = { directory: QueueDirectory.EMPTY, members: new Map() };

/** An inbound call's number dialed (the digits of its `to`; none for a client or SIP address) and its queue: the Twilio queue it waits in, else that number's. */
export const placeOf = (
  to: string | null | undefined,
  directory: QueueDirectory,
  providerQueue?: string,
): Pick<ProviderCall, 'calledNumber'> & QueueFields => {
  const calledNumber = digitsOf(to);
  return { ...(calledNumber ? { calledNumber } : {}), ...directory.fieldsOf({ isOutbound: false, calledNumber, providerQueue }) };
};

const startOf = (leg: TwilioCall, seenAt: number) =>
  parseTwilioTime(leg.start_time) ?? parseTwilioTime(leg.date_created) ?? seenAt;

/** One call from its parent leg and child legs, as seen at `seenAt`. */
const callOf = (root: TwilioCall, children: readonly TwilioCall[], agents: AgentDirectory, seenAt: number, queues: QueuePlaces): ProviderCall => {
  const kind = kindOf(root.direction, root.from, root.to, agents);
  const ended = !isLive(root.status);
  let agent: TwilioAgent | undefined;
  let remoteNumber: string;
  let answered: number | undefined;
  switch (kind.kind) {
    case 'inbound': {
      const agentLegs = children.filter((leg) => agents.byDevice(leg.to)).sort((a, b) => startOf(a, seenAt) - startOf(b, seenAt));
      const times = agentLegs.map((leg) => answeredAt(leg, seenAt));
      answered = earliest(times);
      // The agent who took it; before anyone did, the one rung last.
      const taker = answered === undefined ? agentLegs.at(-1) : agentLegs[times.indexOf(answered)];
      agent = agents.byDevice(taker?.to);
      remoteNumber = digitsOf(root.from);
      break;
    }
    case 'two-step': {
      const remoteLeg = children.find((leg) => !agents.byDevice(leg.to));
      agent = kind.agent;
      remoteNumber = digitsOf(remoteLeg?.to);
      answered = answeredAt(remoteLeg, seenAt);
      break;
    }
    case 'direct':
    case 'outbound':
      agent = kind.kind === 'direct' ? kind.agent : undefined;
      remoteNumber = digitsOf(root.to);
      answered = answeredAt(root, seenAt);
  }
  const call: ProviderCall = {
    callID: root.sid,
    providerCallID: root.sid,
    isOutbound: kind.kind !== 'inbound',
    isMissedCall: kind.kind === 'inbound' && ended && answered === undefined,
    remoteNumber,
    startedAt: startOf(root, seenAt),
    ...(agent ? subscriberFieldsOf(agent) : {}),
  };
  if (kind.kind === 'inbound' && root.caller_name) call.remoteName = root.caller_name;
  if (kind.kind === 'inbound') Object.assign(call, placeOf(root.to, queues.directory, queues.members.get(root.sid)));
  if (answered !== undefined) call.answeredAt = answered;
  // The agent's side: their device's leg for a click-to-call that rang them, the call itself when dialed from their number.
  const agentSide =
    kind.kind === 'two-step'
      ? (answeredAt(root, seenAt) ?? (answered === undefined ? undefined : call.startedAt))
      : kind.kind === 'direct'
        ? call.startedAt
        : undefined;
  if (agentSide !== undefined) call.subscriberAnsweredAt = agentSide;
  if (ended)
    call.endedAt = Math.max(
      parseTwilioTime(root.end_time) ?? parseTwilioTime(root.date_updated) ?? seenAt,
      answered ?? call.startedAt,
    );
  return call;
};

/**
 * The calls the legs make, one per parent leg present. A child whose parent is not among the legs
 * (it ended before the window the ended legs were read for) is left out: its call is known already.
 */
export const callsFromLegs = (legs: readonly TwilioCall[], agents: AgentDirectory, seenAt: number, queues: QueuePlaces = NO_QUEUES): ProviderCall[] => {
  // A leg read twice (it ended between two pages) counts once, as last read.
  const roots = new Map<string, TwilioCall>();
  const children = new Map<string, Map<string, TwilioCall>>();
  for (const leg of legs) {
    if (!leg.parent_call_sid) roots.set(leg.sid, leg);
    else {
      const siblings = children.get(leg.parent_call_sid) ?? new Map<string, TwilioCall>();
      children.set(leg.parent_call_sid, siblings.set(leg.sid, leg));
    }
  }
  return [...roots.values()].map((root) => callOf(root, [...(children.get(root.sid)?.values() ?? [])], agents, seenAt, queues));
};
