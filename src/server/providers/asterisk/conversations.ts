/**
 * Asterisk's channels, joined into calls. Asterisk tells of legs (channels), not calls: a caller's
 * channel, the agents' phones a queue rings, the trunk channel a phone dials. Legs belong to one
 * call when one dialed the other (a `Dial` event, or the originate that made it), when they meet in
 * a mixing bridge, or when they are the two halves of a Local channel. Each call is named by its
 * first leg (its root), which no later leg changes; the call's fields are read from its legs and
 * the agents' endpoints. The model is kept from ARI's events and reconciled with its lists.
 */
import { numberKey } from '../../queues/queue-config.js';
import type { QueueDirectory } from '../../queues/queue-directory.js';
import { subscriberFieldsOf, type AgentPerson } from '../agent-person.js';
import type { CallUpdate, ProviderCall } from '../phone-system.js';
import { parseAriDate, type AriBridge, type AriChannel, type AriEvent } from './ari-messages.js';

export interface AsteriskAgent extends AgentPerson {
  /** The agent's phone as Asterisk names it: technology/resource, such as "PJSIP/101". */
  endpoint: string;
}

/** A call the service originated, by the ID it gave the first channel. */
export interface PlacedCall {
  agent: AsteriskAgent;
  remoteNumber: string;
  /** Two-step: the first channel rings the agent; direct: it dials the remote number. */
  mode: 'two-step' | 'direct';
}

/** The ID prefix of the channels the service originates: a call placed by an earlier run is still known as outbound. */
export const PLACED_CHANNEL_PREFIX = 'callboard-';

interface Party {
  name: string;
  number: string;
}

interface Leg {
  id: string;
  /** The endpoint the channel runs on ("PJSIP/101"), or its Local channel's name without the half. */
  endpoint: string;
  /** Local channels come in two halves, ";1" and ";2", that are one path through the dialplan. */
  localPair?: string;
  state: AriChannel['state'];
  createdAt: number;
  upAt?: number;
  destroyedAt?: number;
  /** Q.850 cause of the hang-up, when Asterisk told it. */
  cause?: number;
  caller: Party;
  connected: Party;
  /**
   * The extension it was created for: for a phone's own channel, the number the agent dialed; for a
   * caller's, the number they dialed (the dialplan moves on to "s", "h"). ARI's Channel has no DNID.
   */
  firstExten: string;
  /** The queue it last waited in, the first argument of the `Queue()` it ran (the service keeps a call's first). */
  queue?: string;
  /** Asterisk makes a channel it dials out in state "Down"; a phone's call to it comes in ringing ("Ring"). */
  bornDown: boolean;
  /** Service clock time it was first seen: a dialed channel is not a call of its own while its Dial may still come. */
  firstSeenAt: number;
  /** Provider time it was last seen alive (an event, a list): a list that no longer shows it ends it there. */
  seenAt: number;
  /** Its hang-up was asked for: leaving its bridge then is part of its end, not a move. */
  hangingUp: boolean;
  /** The leg that dialed this one. */
  parent?: string;
  /** Asterisk runs it as dialed ("AppDial", "AppQueue"), even when the Dial that made it passed unseen. */
  dialed: boolean;
  dialstring?: string;
  /** Mixing bridges the leg was in: it stays joined to the legs it met there. */
  bridges: Set<string>;
  /** When the last word about it came (an event, or a list that showed it), in the model's own count of words. */
  toldTick: number;
}

/** The digits of an extension or number ("+1 555-0100" → "15550100"); none when it holds anything else ("s", "h", "101a"). */
const digitsOf = (text: string | undefined): string => {
  const plain = (text ?? '').replace(/[\s()+.-]/g, '');
  return /^\d{1,15}$/.test(plain) ? plain : '';
};

/** The number a dial string dials: "PJSIP/trunk/sip:911@10.0.0.1:5060" → "911", "15551234567@trunk" → "15551234567". */
export const dialedNumber = (dialstring: string | undefined): string => {
  const target = (dialstring ?? '').split('/').pop() ?? '';
  return digitsOf(target.replace(/^(sips?|tel):/i, '').split('@')[0]);
};

/** Dialplan applications a dialed channel runs in: it was made by another's Dial or Queue. */
const DIALED_APPS = new Set(['AppDial', 'AppDial2', 'AppQueue']);

/** The queue a `Queue()` application's data names: its first argument ("support,t,,,300" → "support"). */
const queueNameOf = (data: string | undefined): string | undefined => data?.split(',', 1)[0]?.trim() || undefined;

/**
 * The number an inbound caller dialed, from the extension their channel came in at: digits without
 * a "+", or the extension as dialed; none for "s", where a channel starts when no number was dialed.
 */
const calledNumberOf = (exten: string): string | undefined => (exten === '' || exten === 's' ? undefined : numberKey(exten));

/** A channel Asterisk dialed out, whose Dial has not told who dialed it yet, waits this long before it counts as a call of its own. */
export const UNJOINED_GRACE_MS = 2000;
/** Legs set aside are remembered this long at least, so a late event or a list asked before they went cannot bring them back. */
const GONE_MIN_MS = 10 * 60_000;

/** "PJSIP/101-0000000a" → "PJSIP/101"; "Local/101@queue-00000001;2" → "Local/101@queue", with its pair. */
const endpointOf = (name: string): { endpoint: string; localPair?: string } => {
  const match = /^(.+)-[0-9a-f]{8}(;[12])?$/i.exec(name);
  if (!match) return { endpoint: name };
  const endpoint = match[1] as string;
  return match[2] ? { endpoint, localPair: name.slice(0, -2) } : { endpoint };
};

export const endpointKey = (endpoint: string): string => {
  const slash = endpoint.indexOf('/');
  return slash < 0 ? endpoint : `${endpoint.slice(0, slash).toUpperCase()}${endpoint.slice(slash)}`;
};

export interface ConversationsOptions {
  agents: readonly AsteriskAgent[];
  /** How long an ended call is still listed. */
  keepEndedMs: number;
  /** The provider's configured queues: a caller in a `Queue()` one lists in `providerQueues` is that queue's. */
  queues: QueueDirectory;
}

interface EndedCall {
  call: ProviderCall;
  /** Service clock time it ended at. */
  at: number;
}

export class Conversations {
  private readonly legs = new Map<string, Leg>();
  private readonly bridges = new Map<string, { mixing: boolean; legs: Set<string> }>();
  private readonly ended = new Map<string, EndedCall>();
  /** Each call's fields as last told, to tell only what changed. */
  private readonly told = new Map<string, string>();
  private readonly placed = new Map<string, PlacedCall>();
  /** Legs of calls set aside, by when: a list asked before they went must not bring them back. */
  private readonly gone = new Map<string, number>();
  private readonly agentsByEndpoint: Map<string, AsteriskAgent>;
  /** Counts the words about legs (events, listed channels), to order them against the lists asked for. */
  private tick = 0;
  /** The last `calls` left out a dialed channel still waiting for its Dial: it is a call of its own once the grace ends. */
  holding = false;

  constructor(private readonly options: ConversationsOptions) {
    this.agentsByEndpoint = new Map(options.agents.map((agent) => [endpointKey(agent.endpoint), agent]));
  }

  get liveLegs(): number {
    return this.legs.size;
  }

  /** The service originates this channel (before any event about it can arrive). */
  notePlaced(channelID: string, placed: PlacedCall): void {
    this.placed.set(channelID, placed);
  }

  /** Asterisk refused the originate: no channel will come. */
  forgetPlaced(channelID: string): void {
    this.placed.delete(channelID);
  }

  private agentOf(leg: Leg): AsteriskAgent | undefined {
    return this.agentsByEndpoint.get(endpointKey(leg.endpoint));
  }

  /** Marks the moment a list is asked for: pass it to `reconcile` with the list's answer. */
  listAsked(): number {
    return ++this.tick;
  }

  /** Takes a channel as ARI shows it at `at` (provider time). */
  private see(channel: AriChannel, at: number, now: number): Leg {
    let leg = this.legs.get(channel.id);
    if (!leg) {
      leg = {
        id: channel.id,
        ...endpointOf(channel.name),
        state: channel.state,
        createdAt: parseAriDate(channel.creationtime) ?? at,
        caller: { ...channel.caller },
        connected: { ...channel.connected },
        firstExten: channel.dialplan.exten,
        bornDown: channel.state === 'Down',
        firstSeenAt: now,
        seenAt: at,
        hangingUp: false,
        dialed: false,
        bridges: new Set(),
        toldTick: 0,
      };
      this.legs.set(channel.id, leg);
    }
    leg.seenAt = Math.max(leg.seenAt, at);
    leg.state = channel.state;
    leg.caller = { name: channel.caller.name, number: channel.caller.number };
    leg.connected = { name: channel.connected.name, number: channel.connected.number };
    this.noteApp(leg, channel.dialplan.app_name, channel.dialplan.app_data);
    if (channel.state === 'Up' && leg.upAt === undefined) leg.upAt = at;
    leg.toldTick = ++this.tick;
    return leg;
  }

  /** What the dialplan application a leg runs tells: it was dialed (`AppDial`, `AppQueue`), or it waits in a queue (`Queue`). */
  private noteApp(leg: Leg, app: string | undefined, data: string | undefined): void {
    if (app !== undefined && DIALED_APPS.has(app)) leg.dialed = true;
    if (app === 'Queue') leg.queue = queueNameOf(data) ?? leg.queue;
  }

  private enter(bridge: AriBridge, legID: string): void {
    const known = this.bridges.get(bridge.id) ?? { mixing: bridge.bridge_type !== 'holding', legs: new Set<string>() };
    this.bridges.set(bridge.id, known);
    known.legs.add(legID);
    this.legs.get(legID)?.bridges.add(bridge.id);
  }

  /** Takes one event, received at service time `now`. */
  apply(event: AriEvent, now: number): void {
    const at = parseAriDate(event.timestamp) ?? now;
    const channel = 'channel' in event ? (event.channel as AriChannel | undefined) : undefined;
    if (channel && this.gone.has(channel.id)) return;
    switch (event.type) {
      case 'EndpointStateChange':
      case 'BridgeCreated':
      case 'BridgeDestroyed':
        return;
      case 'Dial': {
        if (this.gone.has(event.peer.id) || (event.caller && this.gone.has(event.caller.id))) return;
        const peer = this.see(event.peer, at, now);
        if (event.caller && event.caller.id !== peer.id) {
          this.see(event.caller, at, now);
          peer.parent ??= event.caller.id;
        }
        if (event.dialstring) peer.dialstring = event.dialstring;
        return;
      }
      case 'ChannelDialplan':
        // The event names the application itself: an Asterisk older than 13.27 / 16.4 leaves it out of the channel's `dialplan`.
        this.noteApp(this.see(event.channel, at, now), event.dialplan_app, event.dialplan_app_data);
        return;
      case 'ChannelEnteredBridge':
        if (event.channel) {
          this.see(event.channel, at, now);
          this.enter(event.bridge, event.channel.id);
        }
        return;
      case 'ChannelLeftBridge': {
        const leg = this.see(event.channel, at, now);
        // Hanging up, it stays joined to the call it ends; moved on alive (a transfer, a long-lived agent channel), it leaves.
        if (!leg.hangingUp) this.leave(event.bridge.id, leg);
        return;
      }
      case 'ChannelHangupRequest':
        this.see(event.channel, at, now).hangingUp = true;
        return;
      case 'ChannelDestroyed': {
        const leg = this.see(event.channel, at, now);
        leg.destroyedAt ??= at;
        leg.cause = event.cause;
        return;
      }
      default:
        this.see(event.channel, at, now);
    }
  }

  private leave(bridgeID: string, leg: Leg): void {
    leg.bridges.delete(bridgeID);
    const bridge = this.bridges.get(bridgeID);
    bridge?.legs.delete(leg.id);
    if (bridge?.legs.size === 0) this.bridges.delete(bridgeID);
  }

  /**
   * Takes ARI's lists of channels and bridges, asked for at `asked` (from `listAsked`) and answered
   * at `at`: a leg the list leaves out ended unless an event told of it since the list was asked; a
   * channel listed but destroyed meanwhile by an event stays ended.
   */
  reconcile(channels: readonly AriChannel[], bridges: readonly AriBridge[], asked: number, at: number, now: number): void {
    const listed = new Set<string>();
    for (const channel of channels) {
      const known = this.legs.get(channel.id);
      if (known?.destroyedAt !== undefined || this.gone.has(channel.id)) continue;
      listed.add(channel.id);
      // An event since the list was asked is newer than the list: the list only says the leg is alive.
      if (known && known.toldTick > asked) known.seenAt = Math.max(known.seenAt, at);
      else this.see(channel, at, now);
    }
    // Gone without a word: it ended after it was last seen alive, and that is the end the service can stand by.
    for (const leg of this.legs.values())
      if (!listed.has(leg.id) && leg.destroyedAt === undefined && leg.toldTick < asked) leg.destroyedAt = leg.seenAt;
    for (const bridge of bridges) for (const legID of bridge.channels) if (this.legs.has(legID)) this.enter(bridge, legID);
    this.adoptOrphans();
  }

  /**
   * After a (re)connect the `Dial` that joined a dialed channel to its caller may have passed unseen
   * (a ringing phone, a trunk channel a phone dialed, a queue's Local member): a live dialed channel
   * with no known caller, not yet in a bridge, is joined to the live channel its connected line shows
   * as caller (Asterisk shows the caller to the channel it dials), the earliest if several.
   */
  private adoptOrphans(): void {
    const live = [...this.legs.values()].filter((leg) => leg.destroyedAt === undefined).sort((a, b) => a.createdAt - b.createdAt);
    for (const leg of live) {
      if (leg.parent !== undefined || leg.bridges.size > 0 || leg.id.startsWith(PLACED_CHANNEL_PREFIX)) continue;
      if (!leg.dialed && !(leg.state === 'Ringing' && this.agentOf(leg))) continue;
      const number = leg.connected.number;
      const caller = number && live.find((candidate) => candidate !== leg && !candidate.dialed && candidate.caller.number === number && candidate.createdAt <= leg.createdAt);
      if (caller) leg.parent = caller.id;
    }
  }

  /** The legs of each call, by the call's root leg. */
  private groups(): Map<Leg, Leg[]> {
    const neighbours = new Map<string, string[]>();
    const link = (a: string, b: string) => {
      if (!this.legs.has(a) || !this.legs.has(b) || a === b) return;
      (neighbours.get(a) ?? neighbours.set(a, []).get(a))?.push(b);
      (neighbours.get(b) ?? neighbours.set(b, []).get(b))?.push(a);
    };
    const localHalves = new Map<string, string>();
    for (const leg of this.legs.values()) {
      if (leg.parent) link(leg.id, leg.parent);
      if (leg.localPair) {
        const other = localHalves.get(leg.localPair);
        if (other) link(leg.id, other);
        else localHalves.set(leg.localPair, leg.id);
      }
    }
    for (const bridge of this.bridges.values()) {
      if (!bridge.mixing) continue;
      const [first, ...rest] = bridge.legs;
      if (first) for (const other of rest) link(first, other);
    }
    const groups = new Map<Leg, Leg[]>();
    const seen = new Set<string>();
    for (const start of this.legs.values()) {
      if (seen.has(start.id)) continue;
      const members: Leg[] = [];
      const queue = [start.id];
      seen.add(start.id);
      while (queue.length > 0) {
        const leg = this.legs.get(queue.pop() as string) as Leg;
        members.push(leg);
        for (const next of neighbours.get(leg.id) ?? []) {
          if (seen.has(next)) continue;
          seen.add(next);
          queue.push(next);
        }
      }
      groups.set(rootOf(members, this.legs, (leg) => this.agentOf(leg) !== undefined), members);
    }
    return groups;
  }

  private callOf(root: Leg, legs: readonly Leg[]): ProviderCall {
    const placed = this.placed.get(root.id);
    const rootAgent = this.agentOf(root);
    /** Placed by an earlier run of the service: its ID says so. */
    const placedBefore = placed === undefined && root.id.startsWith(PLACED_CHANNEL_PREFIX);
    const isOutbound = placed !== undefined || placedBefore || rootAgent !== undefined;
    const agentLegs = legs.filter((leg) => this.agentOf(leg));
    const answered = agentLegs.filter((leg) => leg.upAt !== undefined).sort((a, b) => (a.upAt as number) - (b.upAt as number));
    const ringing = agentLegs.filter((leg) => leg.destroyedAt === undefined).sort((a, b) => b.createdAt - a.createdAt);
    const agent = placed?.agent ?? (isOutbound ? rootAgent : undefined) ?? this.agentOf(answered[0] ?? ringing[0] ?? agentLegs[0] ?? root);
    const ownLegs = legs.filter((leg) => agent && this.agentOf(leg) === agent);
    const farUp = minOf(legs.filter((leg) => !ownLegs.includes(leg)).map((leg) => leg.upAt));
    const endedAt = legs.every((leg) => leg.destroyedAt !== undefined) ? maxOf(legs.map((leg) => leg.destroyedAt)) : undefined;
    const call: ProviderCall = {
      callID: root.id,
      providerCallID: root.id,
      isOutbound,
      isMissedCall: false,
      remoteNumber: '',
      startedAt: root.createdAt,
    };
    if (isOutbound) {
      call.remoteNumber =
        placed?.remoteNumber ??
        (digitsOf(rootAgent || placedBefore ? root.firstExten : undefined) || dialedNumber(legs.find((leg) => leg.dialstring && !ownLegs.includes(leg))?.dialstring));
      // Placed by the service, the agent's phone rang first; dialed from the phone, the agent was on it from the start.
      const picked = placed || placedBefore ? minOf(ownLegs.map((leg) => leg.upAt)) : rootAgent ? root.createdAt : undefined;
      if (picked !== undefined) call.subscriberAnsweredAt = picked;
      if (farUp !== undefined) call.answeredAt = Math.max(farUp, call.startedAt);
    } else {
      call.remoteNumber = digitsOf(root.caller.number);
      const name = root.caller.name.trim();
      if (name && name !== root.caller.number) call.remoteName = name;
      const calledNumber = calledNumberOf(root.firstExten);
      if (calledNumber !== undefined) call.calledNumber = calledNumber;
      // The caller's own channel runs `Queue()`, or a Local channel it dialed does.
      const providerQueue = root.queue ?? legs.find((leg) => leg.queue !== undefined)?.queue;
      Object.assign(call, this.options.queues.fieldsOf({ isOutbound: false, calledNumber, providerQueue }));
      // An agent's channel that stood before the caller came (an application bridged them) answered when the call began, not before.
      const agentUp = answered[0]?.upAt;
      if (agentUp !== undefined) call.answeredAt = Math.max(agentUp, call.startedAt);
      call.isMissedCall = endedAt !== undefined && agentUp === undefined;
    }
    if (agent) Object.assign(call, subscriberFieldsOf(agent));
    if (endedAt !== undefined) call.endedAt = Math.max(endedAt, call.startedAt);
    return call;
  }

  /**
   * The calls now, live and recently ended; calls that ended are set aside (their legs let go),
   * and a call whose legs joined an older one (a transfer, a consultation) ends where it joined.
   */
  calls(now: number): ProviderCall[] {
    const live: ProviderCall[] = [];
    const roots = new Set<string>();
    this.holding = false;
    for (const [root, legs] of this.groups()) {
      const call = this.callOf(root, legs);
      roots.add(call.callID);
      if (call.endedAt === undefined) {
        if (!this.awaitingCaller(root, now)) live.push(call);
        else this.holding = true;
        continue;
      }
      this.ended.set(call.callID, { call, at: now });
      for (const leg of legs) {
        this.forgetLeg(leg.id, now);
        this.placed.delete(leg.id);
      }
    }
    for (const [callID, fields] of this.told) {
      if (roots.has(callID) || this.ended.has(callID)) continue;
      const call = { ...(JSON.parse(fields) as Omit<ProviderCall, 'callID'>), callID, endedAt: now };
      this.ended.set(callID, { call, at: now });
    }
    for (const [callID, ended] of this.ended) {
      if (now - ended.at <= this.options.keepEndedMs) break;
      this.ended.delete(callID);
      this.told.delete(callID);
    }
    for (const [legID, at] of this.gone) {
      if (now - at <= Math.max(this.options.keepEndedMs, GONE_MIN_MS)) break;
      this.gone.delete(legID);
    }
    return [...live, ...[...this.ended.values()].map((ended) => ended.call)];
  }

  /**
   * A channel Asterisk dialed out (made "Down", or running as dialed) that no Dial has joined to its
   * caller yet: the Dial follows its creation by a few milliseconds, or more when a pre-dial
   * subroutine or a Local channel's dialplan runs first. Until then, or UNJOINED_GRACE_MS, it is no call.
   */
  private awaitingCaller(root: Leg, now: number): boolean {
    if (this.placed.has(root.id) || root.id.startsWith(PLACED_CHANNEL_PREFIX) || root.parent !== undefined) return false;
    return (root.bornDown || root.dialed) && now - root.firstSeenAt < UNJOINED_GRACE_MS;
  }

  private forgetLeg(legID: string, now: number): void {
    const leg = this.legs.get(legID);
    if (!leg) return;
    this.legs.delete(legID);
    this.gone.set(legID, now);
    for (const bridgeID of [...leg.bridges]) this.leave(bridgeID, leg);
  }

  /** The calls whose fields changed since they were last told, as updates at provider time `at`. */
  updates(now: number, at: number): CallUpdate[] {
    const updates: CallUpdate[] = [];
    for (const call of this.calls(now)) {
      const { callID, ...fields } = call;
      const text = JSON.stringify(fields);
      if (this.told.get(callID) === text) continue;
      this.told.set(callID, text);
      updates.push({ callID, at, fields });
    }
    return updates;
  }

  /** The live legs of a call, to hang up. */
  legsOf(callID: string): string[] {
    for (const [root, legs] of this.groups()) if (root.id === callID) return legs.filter((leg) => leg.destroyedAt === undefined).map((leg) => leg.id);
    return [];
  }
}

/**
 * The leg no other in the call dialed, first created (the ID breaks a tie). Where a caller and an
 * agent's channel met in a bridge without a Dial between them (an application bridged them: the
 * agent's channel stands, the callers come), the caller's leg is the call's.
 */
const rootOf = (members: readonly Leg[], all: ReadonlyMap<string, Leg>, isAgent: (leg: Leg) => boolean): Leg => {
  const undialed = members.filter((leg) => !leg.dialed && (leg.parent === undefined || !all.has(leg.parent)));
  const callers = undialed.filter((leg) => !isAgent(leg));
  const candidates = callers.length > 0 && callers.length < undialed.length ? callers : undialed.length > 0 ? undialed : members;
  return candidates.reduce((first, leg) => (leg.createdAt < first.createdAt || (leg.createdAt === first.createdAt && byUniqueID.compare(leg.id, first.id) < 0) ? leg : first));
};

/** Asterisk's unique IDs are "<seconds>.<sequence>": compared as numbers, "1764.10" comes after "1764.9". */
const byUniqueID = new Intl.Collator('en', { numeric: true });

const minOf = (values: readonly (number | undefined)[]): number | undefined => {
  const known = values.filter((value): value is number => value !== undefined);
  return known.length > 0 ? Math.min(...known) : undefined;
};

const maxOf = (values: readonly (number | undefined)[]): number | undefined => {
  const known = values.filter((value): value is number => value !== undefined);
  return known.length > 0 ? Math.max(...known) : undefined;
};
