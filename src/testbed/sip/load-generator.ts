/**
 * Keeps real calls going between the test bed's phones: customers call agents and agents call
 * customers, phones ring a few seconds before they are answered, some callers give up first,
 * talk times vary, either side hangs up. Any call a phone gets (a click-to-call from the
 * dashboard too) is answered the same way.
 */
import type { PhoneEvent } from './phone-control.js';
import type { SipPhone, SipTestbed } from './sip-testbed.js';

export interface LoadOptions {
  agents: readonly SipPhone[];
  customers: readonly SipPhone[];
  /** Calls to keep going at once. */
  targetCalls: number;
  /** Share of calls that customers place (the rest agents place). */
  inboundShare?: number;
  /** Share of callers with little patience: they hang up after 1 to 4 s if nobody answered (missed calls, when a customer calls). */
  impatientShare?: number;
  random?: () => number;
}

export interface LoadStats {
  placed: number;
  answered: number;
  completed: number;
  /** Calls the caller gave up on while they rang. */
  abandoned: number;
  failed: number;
  live: number;
}

export interface LoadGenerator {
  stats(): LoadStats;
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Which calls each phone has, from its own events: a phone with none is free to call or be called. */
const trackCalls = (phone: SipPhone, onIncoming: () => void) => {
  const calls = new Set<string>();
  const unsubscribe = phone.control.onEvent((event: PhoneEvent) => {
    if (event.id === undefined) return;
    if (event.type === 'CALL_CLOSED') calls.delete(event.id);
    else if (event.type.startsWith('CALL_')) calls.add(event.id);
    if (event.type === 'CALL_INCOMING') onIncoming();
  });
  return { busy: () => calls.size > 0, unsubscribe };
};

export const startLoadGenerator = (bed: SipTestbed, options: LoadOptions): LoadGenerator => {
  const random = options.random ?? Math.random;
  const inboundShare = options.inboundShare ?? 0.6;
  const impatientShare = options.impatientShare ?? 0.15;
  const between = (min: number, max: number) => min + random() * (max - min);
  // Talk times: mostly short, some long, like a help desk.
  const talkMs = () => Math.min(120_000, 4000 + -Math.log(1 - random()) * 20_000);
  const stats: LoadStats = { placed: 0, answered: 0, completed: 0, abandoned: 0, failed: 0, live: 0 };
  let running = true;
  const phones = [...options.agents, ...options.customers];
  const reserved = new Set<SipPhone>();
  const trackers = new Map(
    phones.map((phone) => [
      phone,
      trackCalls(phone, () => {
        // Ring a little, then pick up, as a person would.
        setTimeout(() => void phone.control.answer().catch(() => undefined), between(1000, 5000));
      }),
    ]),
  );
  const idle = (list: readonly SipPhone[]) => list.filter((phone) => !reserved.has(phone) && !trackers.get(phone)?.busy());
  const pick = (list: readonly SipPhone[]) => list[Math.floor(random() * list.length)];

  const runCall = async (caller: SipPhone, callee: SipPhone) => {
    const since = [caller.control.seen, callee.control.seen] as const;
    stats.placed += 1;
    stats.live += 1;
    try {
      await caller.control.dial(bed.uriOf(callee.user));
      const patienceMs = random() < impatientShare ? between(1000, 4000) : undefined;
      const outcome = await caller.control
        .waitFor((e) => e.type === 'CALL_ESTABLISHED' || e.type === 'CALL_CLOSED', { since: since[0], timeoutMs: patienceMs ?? 20_000 })
        .catch((error: unknown) => {
          if (patienceMs === undefined) throw error;
          return undefined;
        });
      if (outcome === undefined) {
        await caller.control.hangup();
        stats.abandoned += 1;
      } else if (outcome.type === 'CALL_ESTABLISHED') {
        stats.answered += 1;
        await sleep(talkMs());
        await (random() < 0.5 ? caller : callee).control.hangup();
        stats.completed += 1;
      } else stats.failed += 1;
      await Promise.all([
        caller.control.waitFor((e) => e.type === 'CALL_CLOSED', { since: since[0], timeoutMs: 10_000 }),
        callee.control.waitFor((e) => e.type === 'CALL_CLOSED', { since: since[1], timeoutMs: 10_000 }),
      ]);
    } catch {
      if (running) stats.failed += 1;
    } finally {
      stats.live -= 1;
      reserved.delete(caller);
      reserved.delete(callee);
    }
  };

  const loop = (async () => {
    while (running) {
      const agents = idle(options.agents);
      const customers = idle(options.customers);
      if (stats.live < options.targetCalls && agents.length > 0 && customers.length > 0) {
        const agent = pick(agents) as SipPhone;
        const customer = pick(customers) as SipPhone;
        reserved.add(agent);
        reserved.add(customer);
        void (random() < inboundShare ? runCall(customer, agent) : runCall(agent, customer));
      }
      // New calls trickle in rather than all at once.
      await sleep(between(100, 600));
    }
  })();

  return {
    stats: () => ({ ...stats }),
    stop: async () => {
      running = false;
      await loop;
      for (const tracker of trackers.values()) tracker.unsubscribe();
    },
  };
};
