/**
 * A small call center on the ARI double, running by itself: customers call the queue at random,
 * the queue rings a free agent's phone (two at once now and then), agents answer after a few seconds
 * (now and then a phone refuses busy), callers give up when kept ringing too long, and talks last
 * from seconds to minutes; phones drop their registration now and then. Calls placed through the
 * service (click-to-call) are answered by the agents and the customers they dial. Seeded.
 */
import { createRandom } from '../../server/providers/simulator/random.js';
import type { AriDouble, InboundCall } from './ari-double.js';

export interface AsteriskCallCenterOptions {
  double: AriDouble;
  /** The agents' endpoints ("PJSIP/101"). */
  endpoints: readonly string[];
  callsPerMinute?: number;
  seed?: number;
}

export interface AsteriskCallCenterStats {
  offered: number;
  answered: number;
  abandoned: number;
}


export const startAsteriskCallCenter = (options: AsteriskCallCenterOptions) => {
  const { double } = options;
  const random = createRandom(options.seed ?? 11).next;
  const between = (min: number, max: number) => Math.round(min + random() * (max - min));
  const stats: AsteriskCallCenterStats = { offered: 0, answered: 0, abandoned: 0 };
  const timers = new Set<NodeJS.Timeout>();
  const later = (ms: number, run: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      run();
    }, ms);
    timers.add(timer);
  };
  /** Agents on a call or being rung. */
  const taken = new Set<string>();

  // Click-to-call: the agent picks up in 2 to 5 s; the customer answers in 2 to 6 s (busy now and then) and talks 30 s to 2.5 min.
  for (const endpoint of options.endpoints) double.behave(endpoint, { answerAfterMs: between(2000, 5000), talkMs: between(30_000, 150_000) });
  const behaveCustomers = () => {
    // Any number dialed out: one behaviour, drawn again now and then.
    double.behave('number:*', random() < 0.08 ? { busy: true } : { answerAfterMs: between(2000, 6000), talkMs: between(30_000, 150_000) });
  };
  behaveCustomers();

  const customerCalls = () => {
    stats.offered += 1;
    const registered = options.endpoints.filter((endpoint) => !taken.has(endpoint) && double.endpointState(endpoint) === 'online');
    const call: InboundCall = double.inboundCall({ name: random() < 0.5 ? `Caller ${between(100, 999)}` : '', number: `1555020${String(between(0, 9999)).padStart(4, '0')}` });
    const ring = registered.length > 0 ? [registered[between(0, registered.length - 1)] as string] : [];
    if (ring.length === 1 && registered.length > 2 && random() < 0.3) {
      const second = registered.find((endpoint) => endpoint !== ring[0]);
      if (second) ring.push(second);
    }
    for (const endpoint of ring) taken.add(endpoint);
    call.ring(ring);
    const release = () => {
      for (const endpoint of ring) taken.delete(endpoint);
    };
    const busy = ring.length === 1 && random() < 0.06;
    const answerAfter = between(2000, 9000);
    const patience = ring.length > 0 ? between(6000, 40_000) : between(3000, 12_000);
    if (busy) later(800, () => call.reject(ring[0] as string));
    if (!busy && ring.length > 0 && answerAfter < patience) {
      const answering = ring[between(0, ring.length - 1)] as string;
      later(answerAfter, () => {
        stats.answered += 1;
        call.answer(answering);
        for (const endpoint of ring) if (endpoint !== answering) taken.delete(endpoint);
        later(between(20_000, 120_000), () => {
          call.agentHangsUp(answering);
          taken.delete(answering);
        });
      });
      return;
    }
    later(patience, () => {
      stats.abandoned += 1;
      call.callerHangsUp();
      release();
    });
  };

  const tick = () => {
    customerCalls();
    if (random() < 0.05) behaveCustomers();
    // Arrivals at random (exponential gaps) around the rate asked for.
    later(Math.round((-Math.log(1 - random()) * 60_000) / (options.callsPerMinute ?? 5)), tick);
  };
  later(500, tick);

  // A phone drops its registration for 20 to 60 s about every 5 minutes somewhere on the floor.
  const presence = () => {
    const free = options.endpoints.filter((endpoint) => !taken.has(endpoint) && double.endpointState(endpoint) === 'online');
    const endpoint = free[between(0, free.length - 1)];
    if (endpoint) {
      double.setEndpointState(endpoint, 'offline');
      later(between(20_000, 60_000), () => double.setEndpointState(endpoint, 'online'));
    }
    later(between(120_000, 480_000), presence);
  };
  later(between(60_000, 120_000), presence);

  return {
    stats: (): AsteriskCallCenterStats => ({ ...stats }),
    stop: () => {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
};
