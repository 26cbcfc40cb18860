/** The simulated call center: agents, a waiting queue and calls, advanced event by event in simulated time. */
import type { Subscriber } from '../../../contract/subscriber.js';
import { subscriberFieldsOf } from '../agent-person.js';
import type { SubscriberFields } from '../call-fields.js';
import type { ProviderCall } from '../phone-system.js';
import type { Directory } from './directory.js';
import { EventQueue } from './event-queue.js';
import { Fifo } from './fifo.js';
import { LinkedSet } from './linked-set.js';
import { absencesOn, DAY_MS, dayOf, type Absence } from './presence.js';
import { createRandom, deriveSeed, type Random } from './random.js';
import {
  AGENT_RING_TIMEOUT_MS,
  businessShare,
  callerPatienceMs,
  candidateRate,
  dialedParty,
  DIRECT_SHARE,
  inboundCaller,
  inboundRate,
  inboundRingMs,
  minimumLiveCalls,
  outboundCandidateRate,
  outboundCallee,
  planPlacedCall,
  queueWeight,
  remoteResult,
  remoteRingMs,
  shortWrapUpMs,
  talkMs,
  wrapUpMs,
  type PlacedCallScript,
  type RemoteParty,
  type RemoteResult,
} from './traffic-model.js';

export type DialMode = 'two-step' | 'direct';

/** A queue of the simulated PBX, as plain data (it crosses into the worker that runs the past). */
export interface SimulatedQueue {
  readonly id: string;
  readonly name: string;
  /** The numbers callers dial to reach it; a call to it tells one of them as its `calledNumber`. */
  readonly numbers: readonly string[];
  /** Subscriber IDs of the agents it rings; none: any agent. */
  readonly members: readonly string[];
}

export interface CallCenterSettings {
  readonly seed: number;
  readonly dialMode: DialMode;
  readonly traffic: number;
  readonly keepEndedMs: number;
  /** Starts every callID, so that IDs stay unique across simulator instances. */
  readonly callIDPrefix: string;
  /** Seed of the SIP Call-IDs (default: from `seed`), for a run that shares its traffic's seed with another. */
  readonly callIDSeed?: number;
  /** Seed of the agents' shifts, breaks and drops (default: `seed`): a run of the past keeps the live center's, so a day's presence is the same in both. */
  readonly presenceSeed?: number;
  /** Host part of the SIP Call-IDs used as providerCallID. */
  readonly sipHost: string;
  /**
   * Its queues: inbound calls are spread over them (each with a busy hour of its own, a steady
   * share dialing no queue), a queued caller rings only the queue's members, longest idle first.
   */
  readonly queues?: readonly SimulatedQueue[];
  /** Told of every call as it ends, with simulated times (a run of the simulated past collects them). */
  readonly onCallEnded?: (call: ProviderCall) => void;
  /**
   * Told, once the events of an instant have run, of each agent whose phone or calls changed then
   * (and of every agent at the start), with simulated times: a run of the simulated past derives
   * their states from it as the agent board would.
   */
  readonly onAgentChanged?: (change: AgentChange) => void;
}

/** An agent as their state is derived: their entry, their live calls, and the call that just ended, if one did. */
export interface AgentChange {
  readonly subscriber: Subscriber;
  readonly calls: readonly ProviderCall[];
  readonly at: number;
}

export interface SubscriberStatus {
  registered?: boolean;
  active?: boolean;
}

interface Agent {
  readonly subscriber: Subscriber;
  readonly fields: Readonly<SubscriberFields>;
  /** The agent's place in the directory, which staggers their shifts. */
  readonly index: number;
  /** Left alone by shifts, breaks and drops: on leave, disabled, the person at the demo's screen, or set by a drill. */
  keepsPresence: boolean;
  /** The absence their phone is off for now. */
  away: Absence | undefined;
  /** A shift's end or a break that came while they were busy: taken once they are free, if it has not ended by then. */
  pending: Absence | undefined;
  /** Calls the agent is on or being rung for. */
  calls: number;
  /** Those calls, kept only where a change of agent is told. */
  live: SimulatedCall[];
  /** The call of theirs that ended at this instant, until the change is told. */
  justEnded: SimulatedCall | undefined;
  /** The queues whose callers they take (those without members included), and the direct callers. */
  serves: QueueState[];
  wrappingUp: boolean;
  /** Bumped whenever a pending end of wrap-up must no longer fire. */
  wrapUpGeneration: number;
}

/** A queue's callers in the order they came, and who answers it (undefined: any agent). */
interface QueueState {
  readonly queue: SimulatedQueue | undefined;
  readonly members: ReadonlySet<Agent> | undefined;
  readonly waiting: Fifo<SimulatedCall>;
}

type Phase = 'queued' | 'ringing-agent' | 'dialing-remote' | 'talking' | 'ended';

interface SimulatedCall {
  readonly callID: string;
  readonly providerCallID: string;
  readonly isOutbound: boolean;
  readonly remote: RemoteParty;
  readonly startedAt: number;
  /** The stream that draws this call's course: placed calls never shift the background traffic's draws. */
  readonly random: Random;
  /** Where an inbound call waits for an agent. */
  queue: QueueState | undefined;
  calledNumber: string | undefined;
  agent: Agent | undefined;
  phase: Phase;
  isMissedCall: boolean;
  /** When an inbound caller hangs up unless answered first. */
  giveUpAt?: number;
  answeredAt?: number;
  /** Outbound: when the agent's own phone was connected (at once for a call they dial, when they pick up for a click-to-call). */
  agentConnectedAt?: number;
  endedAt?: number;
}

export class CallCenter {
  private now: number;
  private readonly events = new EventQueue();
  private readonly calls = new Map<string, SimulatedCall>();
  private readonly ended = new Fifo<{ readonly callID: string; readonly forgetAt: number }>();
  /** Callers who dialed no queue; with no queues configured, every caller. */
  private readonly direct: QueueState = { queue: undefined, members: undefined, waiting: new Fifo() };
  private readonly queues: QueueState[];
  /** In insertion order, so the first is the agent who has been idle longest. */
  private readonly idle = new LinkedSet<Agent>();
  private readonly agents: Map<string, Agent>;
  private readonly traffic: Random;
  private readonly placed: Random;
  private readonly ids: Random;
  private live = 0;
  private opened = 0;
  /** Agents whose change is still to be told at the end of this instant. */
  private readonly changed = new Set<Agent>();
  private nextInboundAt: number;
  private nextOutboundAt: number;
  private script: PlacedCallScript | undefined;
  private readonly rates: { inboundCandidates: number; outboundCandidates: number; minimumLive: number };

  constructor(
    private readonly settings: CallCenterSettings,
    private readonly directory: Directory,
    startTime: number,
  ) {
    this.now = startTime;
    this.nextInboundAt = startTime;
    this.nextOutboundAt = startTime;
    this.traffic = createRandom(deriveSeed(settings.seed, 'traffic'));
    this.placed = createRandom(deriveSeed(settings.seed, 'placed-calls'));
    this.ids = createRandom(settings.callIDSeed ?? deriveSeed(settings.seed, 'call-ids'));
    this.agents = new Map(directory.subscribers.map((subscriber, index) => [subscriber.providerSubscriberID, newAgent(subscriber, index)]));
    this.queues = (settings.queues ?? []).map((queue) => ({
      queue,
      members: queue.members.length === 0 ? undefined : new Set(queue.members.flatMap((id) => this.agents.get(id) ?? [])),
      waiting: new Fifo<SimulatedCall>(),
    }));
    for (const agent of this.agents.values())
      agent.serves = [this.direct, ...this.queues.filter((state) => state.members === undefined || state.members.has(agent))];
    this.rates = {
      inboundCandidates: candidateRate(this.agents.size, settings.traffic),
      outboundCandidates: outboundCandidateRate(this.agents.size),
      minimumLive: minimumLiveCalls(this.agents.size, settings.traffic),
    };
    for (const agent of this.agents.values()) this.makeAvailable(agent);
    // Yesterday's off-duty windows may run past midnight into the start.
    this.planPresence(dayOf(startTime) - 1, false);
    this.planPresence(dayOf(startTime), true);
    this.scheduleInboundCandidate();
    this.scheduleOutboundCandidate();
    for (const agent of this.agents.values()) this.touch(agent);
    this.tellChanges();
  }

  /** Runs every event up to `time`; time never runs backwards. */
  advanceTo(time: number): void {
    for (let event = this.eventDueBy(time); event; event = this.eventDueBy(time)) {
      this.now = event.time;
      event.run();
      this.forgetExpired();
      // Events of one instant are one change: an agent freed and rung again at once never shows as available.
      if (this.events.peekTime() !== this.now) this.tellChanges();
    }
    this.now = Math.max(this.now, time);
    this.forgetExpired();
  }

  get liveCount(): number {
    return this.live;
  }

  /** The simulated time at which the calls next change (an event, or an ended call leaving the list), if any. */
  nextChangeAt(): number | undefined {
    const event = this.events.peekTime();
    const expiry = this.ended.peek()?.forgetAt;
    if (event === undefined) return expiry;
    return expiry === undefined ? event : Math.min(event, expiry);
  }

  /** Live and recently ended calls, as fresh records with times mapped by `toClockTime`. */
  listCalls(toClockTime: (simTime: number) => number): ProviderCall[] {
    return Array.from(this.calls.values(), (call) => toProviderCall(call, toClockTime));
  }

  /** One call's record, as the list gives it; undefined once forgotten. */
  callRecord(callID: string, toClockTime: (simTime: number) => number): ProviderCall | undefined {
    const call = this.calls.get(callID);
    return call && toProviderCall(call, toClockTime);
  }

  /** The live directory entry, for checks; never hand it out. */
  subscriber(providerSubscriberID: string): Subscriber | undefined {
    return this.agents.get(providerSubscriberID)?.subscriber;
  }

  subscribers(): Subscriber[] {
    return Array.from(this.agents.values(), (agent) => ({ ...agent.subscriber }));
  }

  setSubscriberStatus(providerSubscriberID: string, status: SubscriberStatus): void {
    const agent = this.agents.get(providerSubscriberID);
    if (!agent) throw new Error(`No subscriber "${providerSubscriberID}" in the simulator's directory`);
    // From now on the drill decides: no shift or break undoes what it set.
    agent.keepsPresence = true;
    agent.away = undefined;
    agent.pending = undefined;
    if (status.registered !== undefined) agent.subscriber.registered = status.registered;
    if (status.active !== undefined) agent.subscriber.active = status.active;
    if (canWork(agent)) this.makeAvailable(agent);
    else this.idle.delete(agent);
    this.touch(agent);
    this.tellChanges();
  }

  scriptNextPlacedCall(script: PlacedCallScript): void {
    this.script = { ...script };
  }

  /** A click-to-call from a subscriber the caller has already checked. */
  placeCall(providerSubscriberID: string, remoteNumber: string): void {
    const agent = this.agents.get(providerSubscriberID);
    if (!agent) throw new Error(`No subscriber "${providerSubscriberID}" in the simulator's directory`);
    const plan = planPlacedCall(this.placed, agent.calls > 0, this.takeScript());
    const remote = dialedParty(remoteNumber, this.directory.contactByNumber);
    const call = this.openCall({ isOutbound: true, remote, agent, random: this.placed });
    this.occupy(agent, call);
    if (this.settings.dialMode === 'direct') {
      call.agentConnectedAt = this.now;
      this.dial(call, plan.remote, plan.remoteRingMs, plan.talkMs);
    } else {
      call.phase = 'ringing-agent';
      if (plan.agentAnswers)
        this.after(plan.agentRingMs, () => {
          if (call.phase === 'ended') return;
          call.agentConnectedAt = this.now;
          this.touch(agent);
          this.dial(call, plan.remote, plan.remoteRingMs, plan.talkMs);
        });
      else this.after(AGENT_RING_TIMEOUT_MS, () => this.end(call, 0));
    }
    this.tellChanges();
  }

  /**
   * A supervisor ends a live call, as a hang-up on the switch: a caller not answered yet counts as
   * missed, and an agent who talked wraps up as after any call. False when the call is not live.
   */
  hangUp(callID: string): boolean {
    const call = this.calls.get(callID);
    if (!call || call.phase === 'ended') return false;
    if (!call.isOutbound && call.answeredAt === undefined) call.isMissedCall = true;
    this.end(call, call.answeredAt === undefined ? 0 : wrapUpMs(call.random));
    this.tellChanges();
    return true;
  }

  private takeScript(): PlacedCallScript | undefined {
    const script = this.script;
    this.script = undefined;
    return script;
  }

  private eventDueBy(time: number) {
    const next = this.events.peekTime();
    return next !== undefined && next <= time ? this.events.pop() : undefined;
  }

  private after(delayMs: number, run: () => void): void {
    this.events.schedule(this.now + Math.round(delayMs), run);
  }

  /**
   * Poisson processes keep their own fractional clock and are thinned to the current rate when a
   * candidate fires, so each draw depends only on the simulation's state at that instant.
   */
  private scheduleInboundCandidate(): void {
    this.nextInboundAt += this.traffic.exponential(1 / this.rates.inboundCandidates);
    this.events.schedule(Math.ceil(this.nextInboundAt), this.onInboundCandidate);
  }

  private readonly onInboundCandidate = (): void => {
    this.scheduleInboundCandidate();
    if (this.traffic.next() * this.rates.inboundCandidates < this.currentInboundRate()) this.receiveCall();
  };

  /** Below the floor of live calls, every candidate becomes a call until the floor is back. */
  private currentInboundRate(): number {
    if (this.live < this.rates.minimumLive) return this.rates.inboundCandidates;
    return inboundRate(this.now, this.agents.size, this.settings.traffic);
  }

  private scheduleOutboundCandidate(): void {
    this.nextOutboundAt += this.traffic.exponential(1 / this.rates.outboundCandidates);
    this.events.schedule(Math.ceil(this.nextOutboundAt), this.onOutboundCandidate);
  }

  /** Kept in proportion to the idle agents, so each idle agent calls out at the model's rate. */
  private readonly onOutboundCandidate = (): void => {
    this.scheduleOutboundCandidate();
    const agent = this.longestIdleAgent();
    const chance = (this.idle.size / this.agents.size) * businessShare(this.now);
    if (!agent || this.traffic.next() >= chance) return;
    const remote = outboundCallee(this.traffic, this.directory.contacts);
    const call = this.openCall({ isOutbound: true, remote, agent, random: this.traffic });
    call.agentConnectedAt = this.now;
    this.occupy(agent, call);
    const result = remoteResult(this.traffic);
    this.dial(call, result, remoteRingMs(this.traffic, result), talkMs(this.traffic, true));
  };

  private receiveCall(): void {
    const caller = inboundCaller(this.traffic, this.directory.contacts);
    const call = this.openCall({ isOutbound: false, remote: caller, agent: undefined, random: this.traffic });
    call.giveUpAt = this.now + Math.round(callerPatienceMs(this.traffic));
    const queue = this.chooseQueue();
    call.queue = queue;
    const numbers = queue.queue?.numbers ?? [];
    if (numbers.length > 0) call.calledNumber = numbers[Math.floor(this.traffic.next() * numbers.length)] as string;
    const agent = queue.members === undefined ? this.longestIdleAgent() : this.idle.find((candidate) => queue.members?.has(candidate) === true);
    if (agent) {
      this.ring(call, agent);
      return;
    }
    queue.waiting.push(call);
    this.events.schedule(call.giveUpAt, () => this.abandon(call));
  }

  /** The queue an inbound caller dials: by each queue's share at this hour, or none (a steady share); no draw without queues. */
  private chooseQueue(): QueueState {
    if (this.queues.length === 0) return this.direct;
    const weights = this.queues.map((_, index) => queueWeight(this.now, index, this.queues.length));
    const total = weights.reduce((sum, weight) => sum + weight, 0);
    let draw = this.traffic.next();
    if (draw < DIRECT_SHARE) return this.direct;
    draw = ((draw - DIRECT_SHARE) / (1 - DIRECT_SHARE)) * total;
    for (let index = 0; index < weights.length; index += 1) {
      draw -= weights[index] as number;
      if (draw < 0) return this.queues[index] as QueueState;
    }
    return this.queues[this.queues.length - 1] as QueueState;
  }

  /** Only the earlier of answer and hang-up is scheduled: most callers never come near their patience. */
  private ring(call: SimulatedCall, agent: Agent): void {
    call.agent = agent;
    this.occupy(agent, call);
    call.phase = 'ringing-agent';
    const answerAt = this.now + Math.round(inboundRingMs(call.random));
    const giveUpAt = call.giveUpAt ?? Infinity;
    if (answerAt < giveUpAt) this.events.schedule(answerAt, () => this.connect(call, talkMs(call.random, false)));
    else this.events.schedule(giveUpAt, () => this.abandon(call));
  }

  private abandon(call: SimulatedCall): void {
    if (call.phase !== 'queued' && call.phase !== 'ringing-agent') return;
    call.isMissedCall = true;
    this.end(call, 0);
  }

  private dial(call: SimulatedCall, result: RemoteResult, ringMs: number, talk: number): void {
    if (call.phase === 'ended') return;
    call.phase = 'dialing-remote';
    this.after(ringMs, () => {
      if (call.phase === 'ended') return;
      if (result === 'answer') this.connect(call, talk);
      else this.end(call, shortWrapUpMs(call.random));
    });
  }

  private connect(call: SimulatedCall, talk: number): void {
    if (call.phase === 'ended') return;
    call.phase = 'talking';
    call.answeredAt = this.now;
    if (call.agent) this.touch(call.agent);
    this.after(talk, () => this.end(call, wrapUpMs(call.random)));
  }

  private openCall(call: Pick<SimulatedCall, 'isOutbound' | 'remote' | 'agent' | 'random'>): SimulatedCall {
    this.opened += 1;
    // Every field from the start: all calls then share one object shape, which a 10,000-call center needs to stay fast.
    const opened: SimulatedCall = {
      callID: `${this.settings.callIDPrefix}-${String(this.opened).padStart(6, '0')}`,
      providerCallID: this.sipCallID(),
      isOutbound: call.isOutbound,
      remote: call.remote,
      startedAt: this.now,
      random: call.random,
      queue: undefined,
      calledNumber: undefined,
      agent: call.agent,
      phase: 'queued',
      isMissedCall: false,
      giveUpAt: undefined,
      answeredAt: undefined,
      agentConnectedAt: undefined,
      endedAt: undefined,
    };
    this.calls.set(opened.callID, opened);
    this.live += 1;
    return opened;
  }

  /** A call's course was drawn ahead: once a supervisor ended it, what was still to come of it is dropped here. */
  private end(call: SimulatedCall, wrapUp: number): void {
    if (call.phase === 'ended') return;
    call.phase = 'ended';
    call.endedAt = this.now;
    this.live -= 1;
    this.ended.push({ callID: call.callID, forgetAt: this.now + this.settings.keepEndedMs });
    this.settings.onCallEnded?.(toProviderCall(call, simulatedTime));
    if (call.agent) this.release(call.agent, call, wrapUp);
  }

  private forgetExpired(): void {
    for (let next = this.ended.peek(); next && next.forgetAt <= this.now; next = this.ended.peek()) {
      this.ended.shift();
      this.calls.delete(next.callID);
    }
  }

  private sipCallID(): string {
    const word = () => this.ids.uint32().toString(16).padStart(8, '0');
    return `${word()}${word()}${word()}@${this.settings.sipHost}`;
  }

  private longestIdleAgent(): Agent | undefined {
    return this.idle.first();
  }

  private occupy(agent: Agent, call: SimulatedCall): void {
    agent.calls += 1;
    if (this.settings.onAgentChanged) {
      agent.live.push(call);
      this.touch(agent);
    }
    agent.wrappingUp = false;
    agent.wrapUpGeneration += 1;
    this.idle.delete(agent);
  }

  private release(agent: Agent, call: SimulatedCall, wrapUp: number): void {
    agent.calls -= 1;
    if (this.settings.onAgentChanged) {
      agent.live.splice(agent.live.indexOf(call), 1);
      agent.justEnded = call;
      this.touch(agent);
    }
    if (agent.calls > 0) return;
    if (wrapUp <= 0) {
      this.makeAvailable(agent);
      return;
    }
    agent.wrappingUp = true;
    const generation = ++agent.wrapUpGeneration;
    this.after(wrapUp, () => {
      if (agent.wrapUpGeneration !== generation) return;
      agent.wrappingUp = false;
      this.makeAvailable(agent);
    });
  }

  private touch(agent: Agent): void {
    if (this.settings.onAgentChanged) this.changed.add(agent);
  }

  /** Tells the changes of agents this instant made, each agent once. */
  private tellChanges(): void {
    const onAgentChanged = this.settings.onAgentChanged;
    if (!onAgentChanged || this.changed.size === 0) return;
    for (const agent of this.changed) {
      const calls = agent.live.map((call) => toProviderCall(call, simulatedTime));
      if (agent.justEnded) calls.push(toProviderCall(agent.justEnded, simulatedTime));
      agent.justEnded = undefined;
      onAgentChanged({ subscriber: agent.subscriber, calls, at: this.now });
    }
    this.changed.clear();
  }

  /**
   * Schedules the absences that begin on simulated `day`, and with `andNext` the planning of the
   * day after at its midnight; an absence under way already begins at once.
   */
  private planPresence(day: number, andNext: boolean): void {
    for (const agent of this.agents.values()) {
      if (agent.keepsPresence) continue;
      for (const absence of absencesOn(this.settings.presenceSeed ?? this.settings.seed, day, agent.index, this.agents.size)) {
        if (absence.to <= this.now) continue;
        if (absence.from <= this.now) this.beginAbsence(agent, absence);
        else this.events.schedule(absence.from, () => this.beginAbsence(agent, absence));
      }
    }
    if (andNext) this.events.schedule((day + 1) * DAY_MS, () => this.planPresence(day + 1, true));
  }

  /** A shift ends or a break begins once the agent is free; a phone drops only while it is idle. */
  private beginAbsence(agent: Agent, absence: Absence): void {
    if (agent.keepsPresence || agent.away) return;
    if (agent.calls > 0 || agent.wrappingUp) {
      if (absence.reason !== 'phone-drop') agent.pending = absence;
      return;
    }
    this.leave(agent, absence);
  }

  private leave(agent: Agent, absence: Absence): void {
    agent.away = absence;
    agent.pending = undefined;
    agent.subscriber.registered = false;
    this.idle.delete(agent);
    this.touch(agent);
    this.events.schedule(Math.max(absence.to, this.now + 1), () => this.returnFrom(agent, absence));
  }

  private returnFrom(agent: Agent, absence: Absence): void {
    if (agent.away !== absence || agent.keepsPresence) return;
    agent.away = undefined;
    agent.subscriber.registered = true;
    this.touch(agent);
    this.makeAvailable(agent);
  }

  /** An agent who is free takes the longest-waiting caller, or joins the idle agents; a shift's end or break that waited for them begins now. */
  private makeAvailable(agent: Agent): void {
    if (!canWork(agent) || agent.calls > 0 || agent.wrappingUp) return;
    const pending = agent.pending;
    if (pending) {
      agent.pending = undefined;
      if (pending.to > this.now) {
        this.leave(agent, pending);
        return;
      }
    }
    const call = this.nextWaitingCall(agent);
    if (call) this.ring(call, agent);
    else this.idle.add(agent);
  }

  /**
   * The longest-waiting caller of the queues the agent serves. Callers who hung up while waiting
   * stay in their queue until they reach its head.
   */
  private nextWaitingCall(agent: Agent): SimulatedCall | undefined {
    let oldest: QueueState | undefined;
    for (const state of agent.serves) {
      let head = state.waiting.peek();
      while (head && head.phase !== 'queued') {
        state.waiting.shift();
        head = state.waiting.peek();
      }
      if (head && (!oldest || head.startedAt < (oldest.waiting.peek() as SimulatedCall).startedAt)) oldest = state;
    }
    return oldest?.waiting.shift();
  }
}

/**
 * A new agent: one whose phone is off from the start (on leave) or whose account is disabled keeps
 * that state, and so does the first, the person at the demo's screen, whose token the demo hands out.
 */
const newAgent = (subscriber: Subscriber, index: number): Agent => ({
  subscriber,
  index,
  keepsPresence: index === 0 || !subscriber.registered || !subscriber.active,
  away: undefined,
  pending: undefined,
  fields: Object.freeze(subscriberFieldsOf({ ...subscriber, subscriberID: subscriber.providerSubscriberID })),
  calls: 0,
  live: [],
  justEnded: undefined,
  serves: [],
  wrappingUp: false,
  wrapUpGeneration: 0,
});

const simulatedTime = (time: number) => time;

const canWork = (agent: Agent) => agent.subscriber.registered && agent.subscriber.active;

const toProviderCall = (call: SimulatedCall, time: (simTime: number) => number): ProviderCall => {
  const record: ProviderCall = {
    callID: call.callID,
    providerCallID: call.providerCallID,
    isOutbound: call.isOutbound,
    isMissedCall: call.isMissedCall,
    remoteNumber: call.remote.number,
    startedAt: time(call.startedAt),
  };
  if (call.remote.name !== undefined) record.remoteName = call.remote.name;
  if (call.remote.contactID !== undefined) record.chosenContactID = call.remote.contactID;
  if (call.answeredAt !== undefined) record.answeredAt = time(call.answeredAt);
  if (call.agentConnectedAt !== undefined) record.subscriberAnsweredAt = time(call.agentConnectedAt);
  if (call.endedAt !== undefined) record.endedAt = time(call.endedAt);
  if (call.calledNumber !== undefined) record.calledNumber = call.calledNumber.replace(/^\+/, '');
  const queue = call.queue?.queue;
  if (queue) {
    record.queueID = queue.id;
    record.queueName = queue.name;
  }
  return call.agent ? Object.assign(record, call.agent.fields) : record;
};
