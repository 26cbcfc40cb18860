/**
 * The demo's customers who call the browser agents: every few seconds, each signed-in browser agent
 * not on a call is called by a free caller, who talks (a tone) for 20 to 40 s, or gives up after
 * 30 s of ringing, then hangs up.
 */
import type { SipPhone, SipTestbed } from './sip-testbed.js';

const CHECK_EVERY_MS = 5000;
const RING_AT_MOST_MS = 30_000;

export interface BrowserCallerOptions {
  /** The browser agents' SIP users. */
  agents: readonly string[];
  /** Phones that call them, one call at a time each. */
  callers: readonly SipPhone[];
}

const isRegistered = async (bed: SipTestbed, user: string) => {
  try {
    const found = (await bed.rpc('ul.lookup', ['location', user], AbortSignal.timeout(1000))) as { Contacts?: unknown[] };
    return (found.Contacts?.length ?? 0) > 0;
  } catch {
    // usrloc answers an unknown AoR with an error.
    return false;
  }
};

export const startBrowserCaller = (bed: SipTestbed, { agents, callers }: BrowserCallerOptions) => {
  const busy = new Map<string, SipPhone>();
  const free = [...callers];
  let placed = 0;
  let stopped = false;

  const call = async (agent: string, caller: SipPhone) => {
    busy.set(agent, caller);
    try {
      const since = caller.control.seen;
      await caller.control.dial(bed.uriOf(agent));
      placed += 1;
      const outcome = await caller.control
        .waitFor((event) => event.type === 'CALL_ESTABLISHED' || event.type === 'CALL_CLOSED', { since, timeoutMs: RING_AT_MOST_MS })
        .catch(() => undefined);
      if (outcome?.type === 'CALL_ESTABLISHED') {
        const closed = caller.control.waitFor((event) => event.type === 'CALL_CLOSED', { since, timeoutMs: 40_000 }).catch(() => undefined);
        await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 20_000 + Math.random() * 20_000))]);
      }
      if (outcome?.type !== 'CALL_CLOSED') await caller.control.hangup().catch(() => undefined);
    } catch {
      // A phone that refused the command: try again at the next round.
    } finally {
      busy.delete(agent);
      free.push(caller);
    }
  };

  const round = async () => {
    for (const agent of agents) {
      if (stopped || busy.has(agent)) continue;
      const caller = free.shift();
      if (!caller) return;
      if (await isRegistered(bed, agent)) void call(agent, caller);
      else free.push(caller);
    }
  };

  const timer = setInterval(() => void round(), CHECK_EVERY_MS);
  return {
    placed: () => placed,
    stop: () => {
      stopped = true;
      clearInterval(timer);
    },
  };
};
