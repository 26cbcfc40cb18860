/**
 * Twilio Programmable Voice as provider: calls listed from the Calls resource and placed through
 * it, status callbacks taken in as pushed updates, the past read back for the journal. Agents and
 * the devices Twilio reaches them at come from the config; the Twilio queue a call waits in, from
 * the Queue and Member resources.
 */
import type { Clock } from '../../clock.js';
import type { QueueConfig } from '../../queues/queue-config.js';
import { QueueDirectory } from '../../queues/queue-directory.js';
import { subscriberFieldsOf } from '../agent-person.js';
import { checkCaller } from '../caller-check.js';
import {
  CallNotEndable,
  ProviderFailure,
  RemoteNumberRejection,
  SubscriberRejection,
  type CallUpdate,
  type PastCalls,
  type PastRange,
  type PhoneSystem,
  type PlaceCallRequest,
  type ProviderCall,
} from '../phone-system.js';
import { AgentDirectory, dialAddress, type TwilioAgent } from './agent-directory.js';
import { callsFromLegs, parseTwilioTime, type QueuePlaces } from './call-legs.js';
import { receiveCallback } from './status-callbacks.js';
import { LIVE_STATUSES, TwilioClient, TwilioRefusal, type FormFields, type TwilioCall, type TwilioCallStatus, type TwilioQueue } from './twilio-client.js';
import { dialTwiml } from './twiml.js';

export interface TwilioPhoneSystemOptions {
  accountSid: string;
  authToken: string;
  apiBaseURL: string;
  callerID: string;
  /** Where Twilio posts this provider's status callbacks (the service's webhook URL); none: lists only. */
  webhookURL?: string;
  /** The service's base URL as Twilio reaches it, which the callbacks' signatures cover. */
  webhookBaseURL?: string;
  dialMode: 'two-step' | 'direct';
  agents: readonly TwilioAgent[];
  /** The provider's configured queues: a call waiting in a Twilio queue one lists in `providerQueues` is that queue's. */
  queues?: readonly QueueConfig[];
  clock: Clock;
}

/** Requests one list may take: three live statuses and the recently ended, each paged by 1,000 legs. */
export const REQUESTS_PER_LIST = 20;
/** Pages of the account's queues one list reads, 1,000 queues a page. */
const QUEUE_PAGES_PER_LIST = 2;
/** Queues whose members one list reads; past it, the others are read by the next lists, in turn. */
const MEMBER_QUEUES_PER_LIST = 10;
/** A Twilio queue holds 5,000 callers at most: 5 pages of members. */
const MEMBER_PAGES_PER_QUEUE = 5;
/** Requests a backfill chunk may take (paged by 1,000 legs), and the pause between two, so the past never crowds out the live lists. */
const BACKFILL_REQUESTS_PER_CHUNK = 200;
const BACKFILL_PAUSE_MS = 250;
/** Ended legs are read back this far before the last list, so a leg that ended around a list is not missed. */
const ENDED_OVERLAP_MS = 10_000;
/** On the first list, ended legs are read back this far. */
const FIRST_ENDED_LOOKBACK_MS = 5 * 60_000;
/** A backfill chunk also reads the legs that ended this long before it: a call's child legs end before the call does. */
const CHILD_LEGS_BEFORE_MS = 60 * 60_000;
const BACKFILL_BATCH = 1000;
/** Two-step: how long the agent's device rings before Twilio gives up, and then the remote party's. */
const AGENT_RING_SECONDS = 30;
const REMOTE_RING_SECONDS = 45;

const STATUS_EVENTS = ['initiated', 'ringing', 'answered', 'completed'];

/** Twilio's error codes that refuse the number dialed (the `To`): invalid, unreachable, not allowed, blocked. */
const REFUSED_NUMBER_CODES = new Set([13223, 13224, 21211, 21214, 21215, 21216, 21217, 21401, 21407, 21421, 21610, 21612]);

const isLive = (status: TwilioCallStatus) => (LIVE_STATUSES as readonly TwilioCallStatus[]).includes(status);

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

export const createTwilioPhoneSystem = (options: TwilioPhoneSystemOptions): PhoneSystem & { readonly client: TwilioClient } => {
  const client = new TwilioClient(options);
  const agents = new AgentDirectory(options.agents);
  const queues = new QueueDirectory(options.queues ?? []);
  /** Whether a configured queue names Twilio queues at all: without one, no queue is read. */
  const namesTwilioQueues = queues.queues.some((queue) => queue.providerQueues.length > 0);
  /** Where the next list starts reading members, when more queues hold callers than one list reads. */
  let memberTurn = 0;
  const callbackURL = (leg?: 'remote') => (options.webhookURL && leg ? `${options.webhookURL}?leg=${leg}` : options.webhookURL);
  /** When the last list read the ended legs: the next reads from a little before it. */
  let endedReadUpTo: number | undefined;

  const listCalls = async (signal: AbortSignal): Promise<ProviderCall[]> => {
    const budget = { left: REQUESTS_PER_LIST };
    const now = options.clock.now();
    const endedSince = (endedReadUpTo ?? now - FIRST_ENDED_LOOKBACK_MS + ENDED_OVERLAP_MS) - ENDED_OVERLAP_MS;
    const legs: TwilioCall[] = [];
    for (const status of LIVE_STATUSES) legs.push(...(await client.listCalls({ Status: status }, budget, signal)));
    legs.push(...(await client.listCalls({ 'EndTime>': iso(endedSince) }, budget, signal)));
    endedReadUpTo = now;
    return callsFromLegs(legs, agents, now, { directory: queues, members: await readMembers(signal) });
  };

  /** A Twilio queue that holds callers and that a configured queue lists. */
  const isWatched = (queue: TwilioQueue): queue is TwilioQueue & { sid: string; friendly_name: string } =>
    queue.sid !== null && queue.friendly_name !== null && queue.current_size > 0 && queues.queueOf({ isOutbound: false, providerQueue: queue.friendly_name }) !== undefined;

  /** The Twilio queue (its friendly name) each waiting call is a member of, by call SID: of the queues a configured queue lists. */
  const readMembers = async (signal: AbortSignal): Promise<QueuePlaces['members']> => {
    const members = new Map<string, string>();
    if (!namesTwilioQueues) return members;
    const watched = (await client.listQueues({ left: QUEUE_PAGES_PER_LIST }, signal)).filter(isWatched);
    const first = memberTurn % Math.max(1, watched.length);
    const turn = [...watched.slice(first), ...watched.slice(0, first)].slice(0, MEMBER_QUEUES_PER_LIST);
    memberTurn = first + turn.length;
    for (const queue of turn)
      for (const member of await client.listMembers(queue.sid, { left: MEMBER_PAGES_PER_QUEUE }, signal))
        if (member.call_sid) members.set(member.call_sid, queue.friendly_name);
    return members;
  };

  const placeCall = async (request: PlaceCallRequest, signal: AbortSignal): Promise<CallUpdate[]> => {
    const entry = agents.bySubscriberID(request.providerSubscriberID);
    checkCaller(entry && agents.subscribers().find((s) => s.providerSubscriberID === entry.subscriberID), request);
    const agent = entry as TwilioAgent;
    const callbacks = (leg?: 'remote'): FormFields =>
      options.webhookURL ? { StatusCallback: callbackURL(leg), StatusCallbackEvent: STATUS_EVENTS, StatusCallbackMethod: 'POST' } : {};
    const remote = `+${request.remoteNumber}`;
    const fields: FormFields =
      options.dialMode === 'two-step'
        ? {
            To: dialAddress(agent.device),
            From: `+${options.callerID}`,
            Timeout: String(AGENT_RING_SECONDS),
            Twiml: dialTwiml({ callerID: `+${options.callerID}`, timeoutSeconds: REMOTE_RING_SECONDS, to: remote, statusCallback: callbackURL('remote') }),
            ...callbacks(),
          }
        : {
            To: remote,
            From: `+${agent.number}`,
            Timeout: String(REMOTE_RING_SECONDS),
            Twiml: dialTwiml({ callerID: `+${agent.number}`, timeoutSeconds: AGENT_RING_SECONDS, to: dialAddress(agent.device) }),
            ...callbacks(),
          };
    let created: TwilioCall;
    try {
      created = await client.createCall(fields, signal);
    } catch (error) {
      throw refusalOf(error, agent, options.dialMode);
    }
    const at = parseTwilioTime(created.date_created) ?? options.clock.now();
    // The call as placed, at once: before its legs tell (the remote number is in no leg until the agent answers).
    return [
      {
        callID: created.sid,
        at,
        fields: { providerCallID: created.sid, isOutbound: true, remoteNumber: request.remoteNumber, startedAt: at, ...subscriberFieldsOf(agent) },
      },
    ];
  };

  /**
   * Ends the call's parent leg, which ends the legs it dialed: `canceled` while it is queued or
   * ringing, `completed` once answered (Twilio ignores `canceled` then, so a call answered between
   * the two requests is completed at once after).
   */
  const endCall = async (call: ProviderCall, signal: AbortSignal): Promise<void> => {
    try {
      const parent = await client.fetchCall(call.callID, signal);
      if (!isLive(parent.status)) throw new CallNotEndable('ended', `Twilio says call ${call.callID} is already ${parent.status}.`);
      if (parent.status !== 'in-progress') {
        const canceled = await client.updateCall(call.callID, { Status: 'canceled' }, signal);
        if (!isLive(canceled.status)) return;
      }
      await client.updateCall(call.callID, { Status: 'completed' }, signal);
    } catch (error) {
      if (error instanceof TwilioRefusal && error.status === 404) throw new CallNotEndable('ended', `Twilio no longer has call ${call.callID}.`);
      if (error instanceof TwilioRefusal) throw new ProviderFailure('error', `Twilio error ${error.code ?? error.status}: ${error.twilioMessage}`);
      throw error;
    }
  };

  async function* backfill(range: PastRange, signal: AbortSignal): AsyncIterable<PastCalls> {
    // Paused between pages: a backfill must leave Twilio's rate to the live lists.
    const query = { 'EndTime>': iso(range.from - CHILD_LEGS_BEFORE_MS), 'EndTime<': iso(range.to) };
    const legs = await client.listCalls(query, { left: BACKFILL_REQUESTS_PER_CHUNK }, signal, BACKFILL_PAUSE_MS);
    // The past has no members: a past call's queue is its number's.
    const calls = callsFromLegs(legs, agents, range.to, { directory: queues, members: new Map() })
      .filter((call) => call.endedAt !== undefined && call.endedAt >= range.from && call.endedAt < range.to && call.startedAt >= range.since)
      .sort((a, b) => (a.endedAt as number) - (b.endedAt as number));
    for (let at = 0; at < calls.length; at += BACKFILL_BATCH) {
      const batch = calls.slice(at, at + BACKFILL_BATCH);
      const next = calls[at + BACKFILL_BATCH];
      yield { calls: batch, through: next ? (next.endedAt as number) : range.to };
    }
    if (calls.length === 0) yield { calls: [], through: range.to };
  }

  return {
    client,
    listCalls,
    placeCall,
    endCall,
    listSubscribers: async () => agents.subscribers(),
    backfill,
    ...(options.webhookBaseURL
      ? {
          webhook: {
            receive: (request) =>
              receiveCallback(request, {
                authToken: options.authToken,
                accountSid: options.accountSid,
                webhookBaseURL: options.webhookBaseURL as string,
                agents,
                queues,
              }),
          },
        }
      : {}),
    close: async () => undefined,
  };
};

/** Twilio's refusal of a call, as the service's own: the agent's device refused, the remote number refused, or the provider's failure. */
const refusalOf = (error: unknown, agent: TwilioAgent, dialMode: 'two-step' | 'direct'): Error => {
  if (!(error instanceof TwilioRefusal)) return error as Error;
  const said = `Twilio error ${error.code ?? error.status}: ${error.twilioMessage}`;
  if (error.code !== undefined && REFUSED_NUMBER_CODES.has(error.code)) {
    // The number Twilio was asked to dial first: the agent's device in two steps, the remote party's directly.
    if (dialMode === 'two-step')
      return new SubscriberRejection('subscriber_unreachable', `Twilio refused to call ${agent.firstName} ${agent.lastName}'s device ${agent.device} (${said})`);
    return new RemoteNumberRejection(`Twilio refused to dial the number (${said})`);
  }
  return new ProviderFailure('error', said);
};
