/**
 * Asterisk as provider, through its REST Interface (ARI). Calls come from the application's event
 * WebSocket (subscribed to everything: channels the dialplan runs are not in the application) and
 * are pushed to the service as they change; ARI's channel and bridge lists reconcile the model on
 * every (re)connect and every RECONCILE_MS, and while the socket is down every list asks them
 * (the service polls). Who is registered is read from the endpoints. Agents and their endpoints
 * come from the config; Asterisk knows endpoints, not people.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Subscriber } from '../../../contract/subscriber.js';
import { toSubscriber } from '../agent-person.js';
import type { Clock } from '../../clock.js';
import type { QueueConfig } from '../../queues/queue-config.js';
import { QueueDirectory } from '../../queues/queue-directory.js';
import { checkCaller } from '../caller-check.js';
import {
  CallNotEndable,
  ProviderFailure,
  RemoteNumberRejection,
  SubscriberRejection,
  type CallUpdate,
  type PhoneSystem,
  type PlaceCallRequest,
  type ProviderCall,
  type StreamHealth,
} from '../phone-system.js';
import { AriClient, AriRefusal, keepEventsOpen } from './ari-client.js';
import { bridgeSchema, channelSchema, endpointSchema, readEvent, type AriEndpoint } from './ari-messages.js';
import { Conversations, endpointKey, PLACED_CHANNEL_PREFIX, type AsteriskAgent } from './conversations.js';

export interface AsteriskPhoneSystemOptions {
  ariURL: string;
  username: string;
  password: string;
  app: string;
  /** The dialplan context a placed call continues in: two-step dials the remote number there, direct the agent's extension. */
  dialContext: string;
  /** Direct mode: the channel that dials the remote number, `{number}` standing for its digits ("PJSIP/{number}@trunk"). */
  trunkEndpoint?: string;
  dialMode: 'two-step' | 'direct';
  agents: readonly AsteriskAgent[];
  /** How long an ended call is still listed by the provider itself. */
  keepEndedMs?: number;
  /** The provider's configured queues: a caller in a `Queue()` one lists in `providerQueues` is that queue's. */
  queues?: readonly QueueConfig[];
  clock: Clock;
  log?: { warn(object: object, message: string): void; info(object: object, message: string): void };
}

/** While the event socket is up, lists answer from the model, and ask ARI this often to reconcile it. */
export const RECONCILE_MS = 30_000;
/** Events within this long are told as one batch (a queue ringing five phones is one update per call). */
const FLUSH_MS = 15;
/** While a dialed channel waits for its Dial, the calls are looked at again this often. */
const HOLD_RECHECK_MS = 250;
/** How long the agent's phone rings (two-step), or the remote party's (direct), before Asterisk gives up. */
const RING_SECONDS = 30;
const DEFAULT_KEEP_ENDED_MS = 5 * 60_000;

/** A list is read item by item: one channel Asterisk writes oddly is left out (and logged), not the whole list. */
const listOf = <T,>(item: z.ZodType<T>, what: string, log: AsteriskPhoneSystemOptions['log']) =>
  z.array(z.unknown()).transform((items) =>
    items.flatMap((value) => {
      const parsed = item.safeParse(value);
      if (parsed.success) return [parsed.data];
      const issue = parsed.error.issues[0];
      log?.warn({ reason: `${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}`.trim() }, `an ARI ${what} left out of the list: it does not match ARI's model`);
      return [];
    }),
  );

const registeredOf = (endpoint: AriEndpoint | undefined): boolean | null =>
  endpoint?.state === 'online' ? true : endpoint?.state === 'offline' ? false : null;

export const createAsteriskPhoneSystem = (options: AsteriskPhoneSystemOptions): PhoneSystem & { readonly client: AriClient } => {
  const client = new AriClient(options);
  const channelsSchema = listOf(channelSchema, 'channel', options.log);
  const bridgesSchema = listOf(bridgeSchema, 'bridge', options.log);
  const endpointsSchema = listOf(endpointSchema, 'endpoint', options.log);
  const conversations = new Conversations({
    agents: options.agents,
    keepEndedMs: options.keepEndedMs ?? DEFAULT_KEEP_ENDED_MS,
    queues: new QueueDirectory(options.queues ?? []),
  });
  const agents = new Map(options.agents.map((agent) => [agent.subscriberID, agent]));
  const endpoints = new Map<string, AriEndpoint>();
  let socketUp = false;
  /** When the model was last reconciled with ARI's lists (service clock); undefined: it must be before it is served. */
  let reconciledAt: number | undefined;
  let pushUpdates: ((updates: CallUpdate[]) => void) | undefined;
  let flushTimer: NodeJS.Timeout | undefined;
  /** After the socket (re)opened, until its lists came: events alone would show legs whose callers only the lists tell. */
  let catchingUp = false;
  let stopStreaming: (() => void) | undefined;
  const closing = new AbortController();

  const flush = () => {
    flushTimer = undefined;
    const now = options.clock.now();
    const updates = conversations.updates(now, now);
    if (updates.length > 0) pushUpdates?.(updates);
    // A dialed channel left out until its Dial comes is told once the grace ends, events or not.
    if (conversations.holding && pushUpdates) flushTimer ??= setTimeout(flush, HOLD_RECHECK_MS);
  };
  const flushSoon = () => {
    if (!catchingUp) flushTimer ??= setTimeout(flush, FLUSH_MS);
  };

  const readEndpoints = async (signal: AbortSignal) => {
    const listed = await client.request('GET', '/endpoints', {}, signal, endpointsSchema);
    endpoints.clear();
    for (const endpoint of listed) endpoints.set(endpointKey(`${endpoint.technology}/${endpoint.resource}`), endpoint);
  };

  const reconcile = async (signal: AbortSignal) => {
    const asked = conversations.listAsked();
    const [channels, bridges] = await Promise.all([
      client.request('GET', '/channels', {}, signal, channelsSchema),
      client.request('GET', '/bridges', {}, signal, bridgesSchema),
    ]);
    const now = options.clock.now();
    conversations.reconcile(channels, bridges, asked, now, now);
    reconciledAt = now;
  };

  const listCalls = async (signal: AbortSignal): Promise<ProviderCall[]> => {
    const now = options.clock.now();
    if (!socketUp || reconciledAt === undefined || now - reconciledAt >= RECONCILE_MS) await reconcile(signal);
    return conversations.calls(options.clock.now());
  };

  /** An agent as a subscriber, registered as its endpoint's state last said. */
  const subscriberOf = (agent: AsteriskAgent): Subscriber => toSubscriber(agent, registeredOf(endpoints.get(endpointKey(agent.endpoint))));

  const listSubscribers = async (signal: AbortSignal): Promise<Subscriber[]> => {
    // The socket tells every endpoint's change; without it (or before its first list) they are asked.
    if (!socketUp || endpoints.size === 0) await readEndpoints(signal);
    return options.agents.map(subscriberOf);
  };

  /** The agent's endpoint as Asterisk has it now: unknown to it, or offline, refuses the call before anything rings. */
  const checkEndpoint = async (agent: AsteriskAgent, signal: AbortSignal): Promise<void> => {
    const [technology, ...rest] = agent.endpoint.split('/');
    let endpoint: AriEndpoint;
    try {
      endpoint = await client.request('GET', `/endpoints/${encodeURIComponent(technology ?? '')}/${encodeURIComponent(rest.join('/'))}`, {}, signal, endpointSchema);
    } catch (error) {
      if (error instanceof AriRefusal && error.status === 404)
        throw new SubscriberRejection('subscriber_not_found', `Asterisk has no endpoint ${agent.endpoint} for ${agent.firstName} ${agent.lastName}: check "endpoint" in the config`);
      throw refusalOf(error);
    }
    endpoints.set(endpointKey(agent.endpoint), endpoint);
    if (endpoint.state === 'offline')
      throw new SubscriberRejection('subscriber_not_registered', `Extension ${agent.extension} (${agent.firstName} ${agent.lastName}) is not registered: ${agent.endpoint} is offline`);
  };

  const placeCall = async (request: PlaceCallRequest, signal: AbortSignal): Promise<CallUpdate[]> => {
    const entry = agents.get(request.providerSubscriberID);
    checkCaller(entry && subscriberOf(entry), request);
    const agent = entry as AsteriskAgent;
    await checkEndpoint(agent, signal);
    const channelId = `${PLACED_CHANNEL_PREFIX}${randomUUID()}`;
    const twoStep = options.dialMode === 'two-step';
    // The dialplan continues the call: its outbound routes, caller ID rules and recording apply as for a call dialed from the phone.
    const query = twoStep
      ? {
          endpoint: agent.endpoint,
          extension: request.remoteNumber,
          context: options.dialContext,
          priority: 1,
          callerId: `"Call to ${request.remoteNumber}" <${request.remoteNumber}>`,
          timeout: RING_SECONDS,
          channelId,
        }
      : {
          endpoint: (options.trunkEndpoint as string).replaceAll('{number}', request.remoteNumber),
          extension: agent.extension,
          context: options.dialContext,
          priority: 1,
          callerId: `"${agent.firstName} ${agent.lastName}" <${agent.number}>`,
          timeout: RING_SECONDS,
          channelId,
        };
    conversations.notePlaced(channelId, { agent, remoteNumber: request.remoteNumber, mode: options.dialMode });
    let created: z.infer<typeof channelSchema>;
    try {
      created = await client.request('POST', '/channels', query, signal, channelSchema);
    } catch (error) {
      conversations.forgetPlaced(channelId);
      if (error instanceof AriRefusal && error.status === 400) {
        if (twoStep) throw new SubscriberRejection('subscriber_unreachable', `Asterisk could not call ${agent.endpoint} (${agent.firstName} ${agent.lastName}): ${error.ariMessage}`);
        throw new RemoteNumberRejection(`Asterisk refused to dial ${query.endpoint}: ${error.ariMessage}`);
      }
      throw refusalOf(error);
    }
    const now = options.clock.now();
    conversations.apply({ type: 'ChannelCreated', application: options.app, timestamp: created.creationtime, channel: created }, now);
    return conversations.updates(now, now);
  };

  const endCall = async (call: ProviderCall, signal: AbortSignal): Promise<void> => {
    const legs = conversations.legsOf(call.callID);
    if (legs.length === 0) legs.push(call.providerCallID);
    let hungUp = 0;
    for (const leg of legs) {
      try {
        await client.request('DELETE', `/channels/${encodeURIComponent(leg)}`, { reason: 'normal' }, signal);
        hungUp += 1;
      } catch (error) {
        if (error instanceof AriRefusal && error.status === 404) continue;
        throw refusalOf(error);
      }
    }
    if (hungUp === 0) throw new CallNotEndable('ended', `Asterisk no longer has call ${call.callID}.`);
  };

  const streamUpdates = (onUpdates: (updates: CallUpdate[]) => void, onHealth?: (health: StreamHealth) => void): (() => void) => {
    pushUpdates = onUpdates;
    let reconciling: AbortController | undefined;
    /** What the service was last told of the socket: undefined before the first word. */
    let toldUp: boolean | undefined;
    const stop = keepEventsOpen(client, {
      message: (text) => {
        let read: ReturnType<typeof readEvent>;
        try {
          read = readEvent(text);
        } catch (error) {
          options.log?.warn({ reason: (error as Error).message }, 'ARI event not taken');
          return;
        }
        if (!('taken' in read)) return;
        const event = read.taken;
        if (event.type === 'EndpointStateChange') {
          endpoints.set(endpointKey(`${event.endpoint.technology}/${event.endpoint.resource}`), event.endpoint);
          return;
        }
        conversations.apply(event, options.clock.now());
        flushSoon();
      },
      opened: () => {
        socketUp = true;
        toldUp = true;
        onHealth?.({ connected: true });
        // What passed while the socket was down: lists first, then events keep the model.
        reconciling?.abort();
        const current = new AbortController();
        reconciling = current;
        catchingUp = true;
        const signal = AbortSignal.any([current.signal, closing.signal, AbortSignal.timeout(10_000)]);
        Promise.all([reconcile(signal), readEndpoints(signal)])
          .catch((error: unknown) => {
            reconciledAt = undefined;
            if (!current.signal.aborted) options.log?.warn({ reason: (error as Error).message }, 'ARI lists after the event socket opened failed');
          })
          .finally(() => {
            if (reconciling !== current) return;
            catchingUp = false;
            flush();
          });
      },
      lost: (reason) => {
        socketUp = false;
        if (toldUp === false) return;
        toldUp = false;
        onHealth?.({ connected: false, detail: `Asterisk's event socket is down (${reason}); its calls are polled until it reopens.` });
      },
    });
    stopStreaming = () => {
      stop();
      reconciling?.abort();
      clearTimeout(flushTimer);
      flushTimer = undefined;
      pushUpdates = undefined;
      socketUp = false;
      catchingUp = false;
      stopStreaming = undefined;
    };
    return stopStreaming;
  };

  return {
    client,
    listCalls,
    placeCall,
    endCall,
    listSubscribers,
    streamUpdates,
    close: async () => {
      stopStreaming?.();
      closing.abort();
      clearTimeout(flushTimer);
    },
  };
};

/** An ARI refusal that no rule above gave a meaning: the provider's failure, with Asterisk's words. */
const refusalOf = (error: unknown): Error =>
  error instanceof AriRefusal ? new ProviderFailure('error', `Asterisk answered ${error.status}: ${error.ariMessage}`) : (error as Error);
