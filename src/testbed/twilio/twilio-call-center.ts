/**
 * A small call center on the Twilio double, running by itself: customers call the account's number
 * at random, each call is dialed to a free agent's device, agents answer after a few seconds (now
 * and then not at all), callers give up when kept ringing too long, and talks last from seconds to
 * minutes. Calls placed through the service (click-to-call) are answered by the agents and the
 * customers they dial. Seeded, so a run can be told again.
 */
import type { TwilioDouble } from './twilio-double.js';

export interface CallCenterOptions {
  double: TwilioDouble;
  /** The account's number customers call, E.164. */
  number: string;
  /** The agents' devices, as Twilio dials them. */
  devices: readonly string[];
  /** Where the number's and the agents' legs' status callbacks go. */
  webhookURL: string;
  callsPerMinute?: number;
  seed?: number;
}

export interface CallCenterStats {
  offered: number;
  answered: number;
  abandoned: number;
  live: number;
}

/** A small, fast, seedable generator (mulberry32). */
const randomFrom = (seed: number) => {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
};

export const startTwilioCallCenter = (options: CallCenterOptions) => {
  const { double } = options;
  const random = randomFrom(options.seed ?? 7);
  const between = (min: number, max: number) => Math.round(min + random() * (max - min));
  const stats: CallCenterStats = { offered: 0, answered: 0, abandoned: 0, live: 0 };
  const timers = new Set<NodeJS.Timeout>();
  const later = (ms: number, run: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      run();
    }, ms);
    timers.add(timer);
  };

  // An agent answers in 2 to 8 s, one call in ten not at all; talks last 20 s to 2 min.
  for (const device of options.devices) double.behave(device, () => (random() < 0.1 ? {} : { answerAfterMs: between(2000, 8000), talkMs: between(20_000, 120_000) }));
  // Customers dialed by click-to-call: busy now and then, else they answer in a few seconds.
  double.behave('*', () => (random() < 0.08 ? { busy: true } : { answerAfterMs: between(2000, 6000), talkMs: between(30_000, 150_000) }));

  const busyDevices = () => new Set(double.calls().filter((call) => ['queued', 'ringing', 'in-progress'].includes(call.status)).map((call) => call.to));

  const customerCalls = () => {
    const free = options.devices.filter((device) => !busyDevices().has(device));
    stats.offered += 1;
    stats.live += 1;
    const root = double.inbound({ from: `+1555020${String(between(0, 9999)).padStart(4, '0')}`, to: options.number, statusCallback: options.webhookURL });
    const device = free[between(0, free.length - 1)];
    if (device) double.dialAgents(root, [device], { statusCallback: options.webhookURL, timeoutSeconds: 20 });
    // A caller kept ringing too long gives up; one nobody could take gives up sooner.
    later(device ? between(6000, 40_000) : between(3000, 12_000), () => {
      const answered = double.children(root).some((leg) => leg.status === 'in-progress' || leg.status === 'completed');
      if (!answered && double.call(root).status === 'in-progress') {
        stats.abandoned += 1;
        double.hangUp(root);
      }
    });
  };

  const tick = () => {
    stats.live = double.calls().filter((call) => call.parent_call_sid === null && ['queued', 'ringing', 'in-progress'].includes(call.status)).length;
    stats.answered = double.calls().filter((call) => call.parent_call_sid !== null && (call.status === 'in-progress' || call.status === 'completed')).length;
    customerCalls();
    // Arrivals at random (exponential gaps) around the rate asked for.
    later(Math.round((-Math.log(1 - random()) * 60_000) / (options.callsPerMinute ?? 5)), tick);
  };
  later(500, tick);

  return {
    stats: (): CallCenterStats => ({ ...stats }),
    stop: () => {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
};
