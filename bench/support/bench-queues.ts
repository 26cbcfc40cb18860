/**
 * A large center with queues for benchmarks: `queues` queues over `agents` agents (members spread
 * over them, each queue's size, traffic and targets its own), and a provider that holds `calls`
 * live calls in them, `ratePerSecond` of them changing each second.
 */
import type { PhoneSystem, ProviderCall } from '../../src/server/providers/phone-system.js';
import { createRandom } from '../../src/server/providers/simulator/random.js';

/** A queue as a provider's config gives it (`queues` of a provider, see `src/server/queues/queue-config.ts`). */
export interface BenchQueue {
  id: string;
  name: string;
  numbers: string[];
  members: string[];
  answerWithinSeconds: number;
  shortAbandonSeconds: number;
  serviceLevelTarget: number;
}

const TOPICS = ['Sales', 'Billing', 'Support', 'Returns', 'Orders', 'Claims', 'Renewals', 'Technical', 'Accounts', 'Onboarding'];
const REGIONS = ['North', 'South', 'East', 'West', 'Central', 'Coast', 'Metro', 'Valley', 'Lakes', 'Plains'];
const ANSWER_WITHIN = [10, 15, 20, 30, 45, 60];
const TARGETS = [0.7, 0.75, 0.8, 0.85, 0.9, 0.95];
const SHORT_ABANDON = [0, 3, 5, 10];

/** The agents' subscriber IDs, as the provider lists them. */
export const agentID = (index: number): string => `agt-${String(index + 1).padStart(4, '0')}`;

/** A queue's number: a toll-free number of its own (the first ten queues have a second one). */
const numbersOf = (index: number) => [
  `+1800555${String(1000 + index).padStart(4, '0')}`,
  ...(index < 10 ? [`+1888555${String(1000 + index).padStart(4, '0')}`] : []),
];

/**
 * `count` queues over `agents` agents: every agent answers one queue, a third of them a second one
 * and one in ten a third, the extra queues drawn in favour of the busiest; so queues run from a
 * few dozen members to well over a hundred. Answer time, target and short abandons vary by queue.
 */
export const benchQueues = (count: number, agents: number): BenchQueue[] => {
  const random = createRandom(29);
  const weights = queueWeights(count);
  const members: string[][] = Array.from({ length: count }, () => []);
  for (let agent = 0; agent < agents; agent += 1) {
    const own = new Set([agent % count]);
    const extra = (random.next() < 1 / 3 ? 1 : 0) + (random.next() < 0.1 ? 1 : 0);
    for (let draws = 0; own.size < 1 + extra && draws < 20; draws += 1)
      own.add(random.weighted(weights.map((weight, i) => [i, weight] as const)));
    for (const queue of own) members[queue]?.push(agentID(agent));
  }
  return Array.from({ length: count }, (_, i) => ({
    id: `q${String(i + 1).padStart(2, '0')}`,
    name: `${TOPICS[i % TOPICS.length]} ${REGIONS[Math.floor(i / TOPICS.length) % REGIONS.length]}${i >= TOPICS.length * REGIONS.length ? ` ${i + 1}` : ''}`,
    numbers: numbersOf(i),
    members: members[i] ?? [],
    answerWithinSeconds: ANSWER_WITHIN[i % ANSWER_WITHIN.length] as number,
    shortAbandonSeconds: SHORT_ABANDON[i % SHORT_ABANDON.length] as number,
    serviceLevelTarget: TARGETS[(i * 7) % TARGETS.length] as number,
  }));
};

/** Each queue's share of the callers: a few busy queues and a long tail (1 / (1 + i / 5)). */
const queueWeights = (count: number) => Array.from({ length: count }, (_, i) => 1 / (1 + i / 5));

/** Callers dialing no queue: a steady share, answered by any free agent. */
const DIRECT_SHARE = 0.05;
const DIRECT_NUMBER = '18005550000';

interface Seat {
  index: number;
  id: string;
  queues: number[];
  call: ProviderCall | undefined;
}

/**
 * The provider of the queues benchmark: `calls` live inbound calls over `agents` agents, who take
 * one call each; the rest wait in their queue. Every `stepMs`, `ratePerSecond` of the calls per
 * second change, spread over the step, in turn: a new caller dials a queue (by its share of the
 * traffic, or no queue), the oldest caller of a queue is answered by a free member (any free agent
 * when none of its members is), and a call on a random agent ends (it leaves the list at once; the
 * service ends it). The count of live calls stays where it started. Like the simulator, the records
 * carry their queue and the number dialed, and it tells the service of each step (`watchChanges`).
 */
export const queuesPhoneSystem = (options: {
  calls: number;
  agents: number;
  queues: readonly BenchQueue[];
  ratePerSecond: number;
  /** Of the agents, the share on a call at the start (the others are free). */
  busyShare?: number;
  stepMs?: number;
}): PhoneSystem => {
  const { queues, ratePerSecond, stepMs = 100 } = options;
  const random = createRandom(17);
  const weights = queueWeights(queues.length);
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  /** Queue index by draw; -1 is no queue. */
  const dialed: (readonly [number, number])[] = [
    ...weights.map((weight, i) => [i, ((1 - DIRECT_SHARE) * weight) / total] as const),
    [-1, DIRECT_SHARE],
  ];
  const subscribers = Array.from({ length: options.agents }, (_, i) => ({
    providerSubscriberID: agentID(i),
    firstName: 'Agent',
    lastName: `${i + 1}`,
    email: `agent${i + 1}@bench.example`,
    extension: String(1000 + i),
    number: `1555${String(1_000_000 + i).slice(1)}`,
    registered: true,
    active: true,
  }));
  const seats: Seat[] = subscribers.map((subscriber, index) => ({
    index,
    id: subscriber.providerSubscriberID,
    queues: [],
    call: undefined,
  }));
  const seatByID = new Map(seats.map((seat) => [seat.id, seat]));
  queues.forEach((queue, q) => queue.members.forEach((member) => seatByID.get(member)?.queues.push(q)));
  /** Free seats in no order (removed in O(1) by swapping with the last), with each one's place. */
  const free: Seat[] = [];
  const freeAt = new Map<Seat, number>();
  const setFree = (seat: Seat) => {
    freeAt.set(seat, free.length);
    free.push(seat);
  };
  const takeSeat = (seat: Seat) => {
    const at = freeAt.get(seat);
    if (at === undefined) return;
    const last = free.pop() as Seat;
    if (last !== seat) {
      free[at] = last;
      freeAt.set(last, at);
    }
    freeAt.delete(seat);
  };
  /** Waiting callers per queue, oldest first (the last entry: no queue). */
  const waiting: ProviderCall[][] = Array.from({ length: queues.length + 1 }, () => []);
  const waitingOf = (q: number) => waiting[q < 0 ? queues.length : q] as ProviderCall[];
  /** Answered calls in no order, for drawing one at random. */
  const talking: ProviderCall[] = [];
  const calls = new Map<string, ProviderCall>();
  let serial = 0;

  const newCall = (q: number, startedAt: number): ProviderCall => {
    serial += 1;
    const queue = q < 0 ? undefined : queues[q];
    return {
      callID: `queued-${serial}`,
      providerCallID: `queued-${serial}@pbx.bench`,
      isOutbound: false,
      isMissedCall: false,
      remoteNumber: `1415${String(5_550_000 + (serial % 1_000_000)).padStart(7, '0')}`,
      startedAt,
      calledNumber: queue ? (queue.numbers[serial % queue.numbers.length] as string).replace(/^\+/, '') : DIRECT_NUMBER,
      ...(queue ? { queueID: queue.id, queueName: queue.name } : {}),
    };
  };
  const seatCall = (seat: Seat, call: ProviderCall, answeredAt: number): ProviderCall => {
    const subscriber = subscribers[seat.index] as (typeof subscribers)[number];
    const answered: ProviderCall = {
      ...call,
      answeredAt,
      subscriberID: seat.id,
      subscriberFirstName: subscriber.firstName,
      subscriberLastName: subscriber.lastName,
      subscriberExtension: subscriber.extension,
    };
    seat.call = answered;
    takeSeat(seat);
    talking.push(answered);
    calls.set(answered.callID, answered);
    return answered;
  };
  /** A free member of queue `q` (none: any free agent), looked for from a random member on. */
  const freeSeatFor = (q: number): Seat | undefined => {
    const members = q < 0 ? [] : (queues[q]?.members ?? []);
    const from = Math.floor(random.next() * Math.max(1, members.length));
    for (let i = 0; i < members.length; i += 1) {
      const seat = seatByID.get(members[(from + i) % members.length] as string);
      if (seat && seat.call === undefined) return seat;
    }
    return free.length === 0 ? undefined : free[Math.floor(random.next() * free.length)];
  };

  // The start: the busy share of the agents on a call of one of their queues, the other callers waiting.
  const start = Date.now();
  for (const seat of seats) setFree(seat);
  const busy = Math.min(options.calls, Math.round(options.agents * (options.busyShare ?? 0.9)));
  for (const seat of [...seats].sort(() => random.next() - 0.5).slice(0, busy)) {
    const q = seat.queues.length === 0 ? -1 : (seat.queues[Math.floor(random.next() * seat.queues.length)] as number);
    const startedAt = start - random.int(30_000, 400_000);
    seatCall(seat, newCall(q, startedAt), startedAt + random.int(3_000, 60_000));
  }
  for (let i = busy; i < options.calls; i += 1) {
    const call = newCall(random.weighted(dialed), start - random.int(0, 90_000));
    calls.set(call.callID, call);
    waitingOf(queues.findIndex((queue) => queue.id === call.queueID)).push(call);
  }
  for (const list of waiting) list.sort((a, b) => a.startedAt - b.startedAt);

  const ring = (now: number) => {
    const q = random.weighted(dialed);
    const call = newCall(q, now);
    calls.set(call.callID, call);
    waitingOf(q).push(call);
  };
  const answer = (now: number) => {
    // The queue drawn as callers draw theirs, so each queue is answered about as often as it is called.
    let q = random.weighted(dialed);
    if (waitingOf(q).length === 0) q = waiting.findIndex((list) => list.length > 0);
    if (q === queues.length) q = -1;
    const call = waitingOf(q)[0];
    const seat = freeSeatFor(q);
    if (!call || !seat) return;
    waitingOf(q).shift();
    seatCall(seat, call, now);
  };
  const end = () => {
    if (talking.length === 0) return;
    const index = Math.floor(random.next() * talking.length);
    const call = talking[index] as ProviderCall;
    talking[index] = talking[talking.length - 1] as ProviderCall;
    talking.pop();
    calls.delete(call.callID);
    const seat = call.subscriberID === undefined ? undefined : seatByID.get(call.subscriberID);
    if (seat) {
      seat.call = undefined;
      setFree(seat);
    }
  };
  const steps = [ring, answer, end] as const;

  const perStep = (options.calls * ratePerSecond * stepMs) / 1000;
  let owed = 0;
  let cycle = 0;
  const watchers = new Set<() => void>();
  const timer = setInterval(() => {
    const now = Date.now();
    owed += perStep;
    for (; owed >= 1; owed -= 1) {
      (steps[cycle % steps.length] as (now: number) => void)(now);
      cycle += 1;
    }
    for (const onChange of watchers) onChange();
  }, stepMs);
  timer.unref();

  return {
    listCalls: async () => [...calls.values()],
    placeCall: async () => undefined,
    listSubscribers: async () => subscribers.map((subscriber) => ({ ...subscriber })),
    watchChanges: (onChange) => {
      watchers.add(onChange);
      return () => watchers.delete(onChange);
    },
    close: async () => clearInterval(timer),
  };
};

/**
 * The calls of the `minutes` before `now` that ended before it, as the journal of a service that
 * has run a while holds them: offered at the pace the provider's changes give (`perSecond` callers
 * a second, each queue by its share), every one answered by a member of its queue after a wait of
 * up to about a minute and a half, and ended after a talk of about `talkSeconds`.
 */
export const pastQueueCalls = (options: {
  queues: readonly BenchQueue[];
  agents: number;
  perSecond: number;
  minutes: number;
  now: number;
  talkSeconds: number;
}): ProviderCall[] => {
  const { queues, now } = options;
  const random = createRandom(23);
  const weights = queueWeights(queues.length);
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  const dialed: (readonly [number, number])[] = [
    ...weights.map((weight, i) => [i, ((1 - DIRECT_SHARE) * weight) / total] as const),
    [-1, DIRECT_SHARE],
  ];
  const from = now - options.minutes * 60_000;
  const calls: ProviderCall[] = [];
  const offered = Math.round(options.perSecond * options.minutes * 60);
  for (let i = 0; i < offered; i += 1) {
    const q = random.weighted(dialed);
    const queue = q < 0 ? undefined : queues[q];
    const startedAt = from + Math.floor(random.next() * (now - from));
    const answeredAt = startedAt + random.int(2_000, 90_000);
    const endedAt = answeredAt + Math.max(2_000, Math.round(random.exponential(options.talkSeconds * 1000)));
    if (endedAt >= now - 1000) continue;
    const member =
      queue && queue.members.length > 0
        ? (queue.members[Math.floor(random.next() * queue.members.length)] as string)
        : agentID(random.int(0, options.agents - 1));
    const index = Number(member.slice(4)) - 1;
    calls.push({
      callID: `past-${i + 1}`,
      providerCallID: `past-${i + 1}@pbx.bench`,
      isOutbound: false,
      isMissedCall: false,
      remoteNumber: `1415${String(5_550_000 + (i % 1_000_000)).padStart(7, '0')}`,
      startedAt,
      answeredAt,
      endedAt,
      subscriberID: member,
      subscriberFirstName: 'Agent',
      subscriberLastName: `${index + 1}`,
      subscriberExtension: String(1000 + index),
      calledNumber: queue ? (queue.numbers[i % queue.numbers.length] as string).replace(/^\+/, '') : DIRECT_NUMBER,
      ...(queue ? { queueID: queue.id, queueName: queue.name } : {}),
    });
  }
  return calls;
};
