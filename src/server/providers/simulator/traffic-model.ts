/**
 * The simulator's statistics: when calls arrive, how long they ring, wait and talk, and how they end.
 * The daily curve reads the UTC hour of simulated time, so a demo looks the same wherever it runs.
 */
import type { Contact } from './directory.js';
import { outsideNumber } from './phone-numbers.js';
import type { Random } from './random.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * Inbound calls per agent per hour at the busiest moment of a weekday: with their own outbound
 * calls the agents are then about 95 % occupied, so callers queue, and the busiest hours' service
 * level falls well below the night's, as in a center staffed for the average rather than the peak.
 */
const PEAK_CALLS_PER_AGENT_HOUR = 10.5;

/**
 * Share of the peak at each UTC hour of a weekday, linear in between: quiet night, morning ramp,
 * late-morning peak, lunch dip, early-afternoon peak, evening decline.
 */
// prettier-ignore
const WEEKDAY_CURVE: readonly number[] = [
  0.10, 0.07, 0.05, 0.05, 0.06, 0.10, 0.22, 0.45, 0.75, 0.92, 1.00, 0.97, // 00:00 to 11:00
  0.72, 0.85, 0.95, 0.90, 0.78, 0.58, 0.40, 0.30, 0.22, 0.17, 0.14, 0.12, // 12:00 to 23:00
];

/** Weekday factor, indexed like Date#getUTCDay (Sunday first). */
const WEEK: readonly number[] = [0.4, 1, 1, 1, 1, 1, 0.5];

/** The demo must look busy at any hour: the rate never drops below this share of the peak... */
const FLOOR_SHARE = 0.2;
/** ...and below this many live calls per agent (times traffic), calls arrive at the top rate until it is back. */
const MINIMUM_LIVE_PER_AGENT = 6 / 24;

/** Candidate arrivals are drawn at this multiple of the peak, then thinned to the current rate. */
const CANDIDATE_HEADROOM = 5;

/** Agents' own calls: attempts per hour that an agent spends idle, at the peak of business hours. */
const OUTBOUND_ATTEMPTS_PER_IDLE_AGENT_HOUR = 3;

/** 1970-01-01 was a Thursday. */
const EPOCH_WEEKDAY = 4;

export const AGENT_RING_TIMEOUT_MS = 30 * SECOND;

/** Share of the weekday peak at a simulated instant, as business hours go. */
export const businessShare = (simTime: number): number => {
  const day = Math.floor(simTime / DAY);
  const hours = (simTime - day * DAY) / HOUR;
  const hour = Math.floor(hours);
  const from = WEEKDAY_CURVE[hour] as number;
  const to = WEEKDAY_CURVE[(hour + 1) % 24] as number;
  const weekday = WEEK[(((day + EPOCH_WEEKDAY) % 7) + 7) % 7] as number;
  return (from + (to - from) * (hours - hour)) * weekday;
};

/** The inbound share of the peak: business hours, but never below the demo's floor. */
export const dailyShare = (simTime: number): number => Math.max(FLOOR_SHARE, businessShare(simTime));

/** Inbound calls per millisecond for a center of `agents` at load `traffic`. */
export const inboundRate = (simTime: number, agents: number, traffic: number): number =>
  peakRate(agents, traffic) * dailyShare(simTime);

export const candidateRate = (agents: number, traffic: number): number => peakRate(agents, traffic) * CANDIDATE_HEADROOM;

export const minimumLiveCalls = (agents: number, traffic: number): number =>
  Math.max(1, Math.round(agents * traffic * MINIMUM_LIVE_PER_AGENT));

/** Candidates for agents' own calls; each is kept with chance idle share × business share. */
export const outboundCandidateRate = (agents: number): number => (agents * OUTBOUND_ATTEMPTS_PER_IDLE_AGENT_HOUR) / HOUR;

const peakRate = (agents: number, traffic: number) => (agents * traffic * PEAK_CALLS_PER_AGENT_HOUR) / HOUR;

export interface RemoteParty {
  readonly number: string;
  readonly name?: string;
  readonly contactID?: string;
}

const partyOf = (contact: Contact): RemoteParty => ({
  number: contact.number,
  name: contact.name,
  contactID: contact.contactID,
});

/** Who calls in: a few withhold their number, about a third are customers the CRM knows. */
export const inboundCaller = (random: Random, contacts: readonly Contact[]): RemoteParty => {
  const kind = random.weighted([
    ['withheld', 4],
    ['contact', 32],
    ['stranger', 64],
  ] as const);
  if (kind === 'withheld') return { number: '' };
  return kind === 'contact' ? partyOf(random.pick(contacts)) : { number: outsideNumber(random) };
};

/** Whom agents call back: mostly customers picked from the CRM. */
export const outboundCallee = (random: Random, contacts: readonly Contact[]): RemoteParty =>
  random.bernoulli(0.6) ? partyOf(random.pick(contacts)) : { number: outsideNumber(random) };

/** A dialed number, named when the CRM knows it. */
export const dialedParty = (number: string, contactByNumber: ReadonlyMap<string, Contact>): RemoteParty => {
  const contact = contactByNumber.get(number);
  return contact ? partyOf(contact) : { number };
};

/** How long a caller waits before hanging up, counted from when the call arrived. */
export const callerPatienceMs = (random: Random): number => 3 * SECOND + random.exponential(150 * SECOND);

/** Inbound answer delay once the call rings at an agent: 1.5 to 18 s, usually 3 to 7. */
export const inboundRingMs = (random: Random): number => Math.min(18 * SECOND, 1.5 * SECOND + random.lognormal(3.5 * SECOND, 0.6));

/** Conversation length: median about 3 min (2.5 for outbound), a long tail past 20 min, at most 3 h. */
export const talkMs = (random: Random, isOutbound: boolean): number =>
  Math.min(3 * HOUR, 8 * SECOND + random.lognormal(isOutbound ? 140 * SECOND : 170 * SECOND, isOutbound ? 0.95 : 0.9));

/** After-call work once a conversation ends. */
export const wrapUpMs = (random: Random): number => Math.min(2 * MINUTE, 3 * SECOND + random.lognormal(12 * SECOND, 0.6));

/** After a call that never connected the agent is back almost at once. */
export const shortWrapUpMs = (random: Random): number => random.uniform(1 * SECOND, 5 * SECOND);

export type RemoteResult = 'answer' | 'busy' | 'no-answer';

export const remoteResult = (random: Random): RemoteResult =>
  random.weighted([
    ['answer', 70],
    ['no-answer', 20],
    ['busy', 10],
  ] as const);

/** How long the remote side rings before it answers, signals busy, or the network gives up. */
export const remoteRingMs = (random: Random, result: RemoteResult): number => {
  switch (result) {
    case 'answer':
      return Math.min(15 * SECOND, 3 * SECOND + random.lognormal(5 * SECOND, 0.5));
    case 'busy':
      return random.uniform(1.5 * SECOND, 4 * SECOND);
    case 'no-answer':
      return random.uniform(25 * SECOND, 40 * SECOND);
  }
};

/** Fixes parts of the next placed call's course, for tests and demos; what is left out is drawn. */
export interface PlacedCallScript {
  /** Two-step only: whether the agent picks up their ringing device. */
  agent?: 'answer' | 'no-answer';
  agentRingMs?: number;
  remote?: RemoteResult;
  remoteRingMs?: number;
  talkMs?: number;
}

export interface PlacedCallPlan {
  agentAnswers: boolean;
  agentRingMs: number;
  remote: RemoteResult;
  remoteRingMs: number;
  talkMs: number;
}

/** The whole course of a click-to-call, drawn at once; an agent busy on another call answers less often. */
export const planPlacedCall = (random: Random, agentBusy: boolean, script: PlacedCallScript = {}): PlacedCallPlan => {
  const agentAnswers = random.bernoulli(agentBusy ? 0.75 : 0.95);
  const agentRingMs = random.uniform(1.5 * SECOND, 5 * SECOND);
  const remote = script.remote ?? remoteResult(random);
  return {
    agentAnswers: script.agent === undefined ? agentAnswers : script.agent === 'answer',
    agentRingMs: script.agentRingMs ?? agentRingMs,
    remote,
    remoteRingMs: script.remoteRingMs ?? remoteRingMs(random, remote),
    talkMs: script.talkMs ?? talkMs(random, true),
  };
};

/** Inbound calls that dial an agent or a number no queue lists, where the center has queues: a steady share. */
export const DIRECT_SHARE = 0.12;

/**
 * A queue's share of the inbound calls at a simulated instant, before normalising: each queue has a
 * busy hour of its own (the first queue's in the morning, the last one's late in the afternoon),
 * so their figures rise and fall at different times of the day.
 */
export const queueWeight = (simTime: number, index: number, queues: number): number => {
  const peak = 9.5 + (queues > 1 ? (index * 7) / (queues - 1) : 3);
  const hour = (simTime % DAY) / HOUR;
  const distance = Math.min(Math.abs(hour - peak), 24 - Math.abs(hour - peak));
  return 0.5 + Math.exp(-(distance * distance) / 8);
};
