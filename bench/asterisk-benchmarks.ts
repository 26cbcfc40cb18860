/**
 * The Asterisk provider, against the double of ARI (no Asterisk): how soon an agent's answer reaches
 * the pixel in Chromium when ARI's event socket tells it, and when only lists do (the socket
 * refused); how long after a cut of the event socket the calls are whole again; and how many
 * requests to ARI a minute costs at 200 live calls, with the socket up and down.
 */
import type { Browser } from 'playwright-core';
import { ManualClock, systemClock } from '../src/server/clock.js';
import type { ProviderCall } from '../src/server/providers/phone-system.js';
import { STABLE_AFTER_MS } from '../src/server/providers/asterisk/ari-client.js';
import { RECONCILE_MS } from '../src/server/providers/asterisk/asterisk-phone-system.js';
import { startBuiltService } from '../src/testbed/built-service.js';
import { AriDouble, type InboundCall } from '../src/testbed/asterisk/ari-double.js';
import { ARI_PASSWORD, ARI_USER, asteriskOnDouble, asteriskProviderConfig, endpointOf, TEST_AGENTS } from '../src/testbed/asterisk/asterisk-testbed.js';
import { paintedTalking } from './dashboard-benchmarks.js';
import { BENCH_TOKEN } from './support/bench-token.js';

export interface AsteriskFreshness {
  how: 'events' | 'lists';
  samples: number;
  p50: number;
  p95: number;
  max: number;
}

export interface AsteriskReconnect {
  rounds: number;
  liveCalls: number;
  /** Calls that changed while the socket was down, each round. */
  changedWhileDown: number;
  p50: number;
  max: number;
}

export interface AsteriskRequests {
  liveCalls: number;
  /** Requests to ARI in one minute of lists every 2 s and registrations every 5 s. */
  socketUp: number;
  socketDown: number;
}

const quantile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))] ?? NaN;
const ENDPOINTS = TEST_AGENTS.map(endpointOf);
const scope = { accountID: 'bench', applicationID: 'app', providerID: 'pbx' };

const startDouble = () => AriDouble.start({ username: ARI_USER, password: ARI_PASSWORD, endpoints: ENDPOINTS });

/**
 * Inbound calls rung to an agent and answered, one at a time: from the moment the double sends the
 * answer's events to the painted "Talking". With the socket refused, the service lists ARI every
 * 2 s (the provider's default) and only a list tells.
 */
export const asteriskFreshness = async (browser: Browser, samples: number, how: AsteriskFreshness['how']): Promise<AsteriskFreshness> => {
  const double = await startDouble();
  double.refuseEvents = how === 'lists';
  const service = await startBuiltService({
    name: 'bench-asterisk',
    config: {
      accounts: [
        {
          id: scope.accountID,
          name: 'Bench',
          applications: [{ id: scope.applicationID, name: 'App', providers: [asteriskProviderConfig({ ariURL: double.url, syncIntervalMs: 2000 })] }],
          tokens: [{ name: 'bench', token: BENCH_TOKEN, applications: '*', permissions: ['calls:read', 'calls:write'] }],
        },
      ],
    },
  }).catch(async (error: unknown) => {
    await double.stop();
    throw error;
  });
  const base = service.url;
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.addInitScript('globalThis.__name = (fn) => fn;');
  const delays: number[] = [];
  try {
    await page.goto(`${base}/?sort=started&dir=desc#token=${BENCH_TOKEN}`);
    await page.getByText(/· pushed/).waitFor({ timeout: 30_000 });
    for (let i = 0; i < samples; i += 1) {
      const number = `1555010${String(2000 + i)}`;
      const endpoint = ENDPOINTS[i % ENDPOINTS.length] as string;
      const call = double.inboundCall({ name: '', number }).ring([endpoint]);
      const formatted = `+1 (555) 010-${String(2000 + i)}`;
      await page.getByRole('row').filter({ hasText: formatted }).waitFor({ timeout: 30_000 });
      // A moment at random within the list interval: lists are not timed to the answers.
      await new Promise((resolve) => setTimeout(resolve, Math.round(Math.random() * 2000)));
      const painted = paintedTalking(page, formatted);
      const answeredAt = Date.now();
      call.answer(endpoint);
      delays.push((await painted) - answeredAt);
      call.agentHangsUp(endpoint);
    }
    return { how, samples, p50: quantile(delays, 0.5), p95: quantile(delays, 0.95), max: Math.max(...delays) };
  } finally {
    await page.close();
    await service.stop();
    await double.stop();
  }
};

/** `liveCalls` inbound calls, each answered by an agent (the double lets an agent take many, as a conference would not matter here). */
const fillCalls = (double: AriDouble, liveCalls: number): InboundCall[] =>
  Array.from({ length: liveCalls }, (_, i) => {
    const endpoint = ENDPOINTS[i % ENDPOINTS.length] as string;
    return double.inboundCall({ name: '', number: `1555030${String(i).padStart(4, '0')}` }).ring([endpoint]).answer(endpoint);
  });

/**
 * The event socket cut at 200 live calls; while it is down, 10 calls end and 10 new ones are
 * answered. From the cut to the moment the calls the provider pushed match ARI's again: the
 * backoff, the reconnect, the lists and the updates.
 */
export const asteriskReconnect = async (rounds: number, liveCalls = 200): Promise<AsteriskReconnect> => {
  const double = await startDouble();
  const phone = asteriskOnDouble(double.url, systemClock);
  const pushed = new Map<string, ProviderCall>();
  const stop = phone.streamUpdates?.((updates) => {
    for (const update of updates) pushed.set(update.callID, { ...pushed.get(update.callID), ...update.fields, callID: update.callID } as ProviderCall);
  });
  const times: number[] = [];
  const changed = 10;
  try {
    const calls = fillCalls(double, liveCalls);
    const whole = () => {
      const live = new Set(calls.map((call) => call.channelID));
      const told = [...pushed.values()].filter((call) => call.endedAt === undefined);
      return told.length === live.size && told.every((call) => live.has(call.callID) && call.answeredAt !== undefined);
    };
    const until = async (test: () => boolean, what: string) => {
      const deadline = Date.now() + 30_000;
      while (!test()) {
        if (Date.now() > deadline) throw new Error(`${what} not within 30 s`);
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
    };
    await until(whole, 'the first list');
    for (let round = 0; round < rounds; round += 1) {
      const cutAt = performance.now();
      double.cutEvents();
      for (const call of calls.splice(0, changed)) call.callerHangsUp();
      calls.push(...fillCalls(double, changed));
      await until(whole, 'the calls after a reconnect');
      times.push(performance.now() - cutAt);
      // Settled before the next cut: the socket open again, and up long enough not to count as a flap.
      await until(() => double.openSockets === 1, 'the socket');
      await new Promise((resolve) => setTimeout(resolve, STABLE_AFTER_MS + 500));
    }
    return { rounds, liveCalls, changedWhileDown: 2 * changed, p50: quantile(times, 0.5), max: Math.max(...times) };
  } finally {
    stop?.();
    await phone.close();
    await double.stop();
  }
};

/**
 * One minute as the service runs the provider at 200 live calls: a list every 2 s (the provider's
 * default interval) and the registrations every 5 s (the agent board's), on a clock the bench
 * moves; the requests ARI received, with the event socket up and refused.
 */
export const asteriskRequestsPerMinute = async (liveCalls = 200): Promise<AsteriskRequests> => {
  const minute = async (socket: boolean) => {
    const double = await startDouble();
    double.refuseEvents = !socket;
    const clock = new ManualClock(Date.now());
    const phone = asteriskOnDouble(double.url, clock);
    const stop = phone.streamUpdates?.(() => undefined);
    try {
      fillCalls(double, liveCalls);
      if (socket) while (double.openSockets === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      await new Promise((resolve) => setTimeout(resolve, 100));
      const signal = AbortSignal.timeout(30_000);
      await phone.listCalls(signal);
      const before = phone.client.requests;
      for (let ms = 1000; ms <= 60_000; ms += 1000) {
        clock.advance(1000);
        if (ms % 2000 === 0) await phone.listCalls(signal);
        if (ms % 5000 === 0) await phone.listSubscribers(signal);
      }
      return phone.client.requests - before;
    } finally {
      stop?.();
      await phone.close();
      await double.stop();
    }
  };
  return { liveCalls, socketUp: await minute(true), socketDown: await minute(false) };
};

export const asteriskSection = (fresh: AsteriskFreshness[], reconnect: AsteriskReconnect, requests: AsteriskRequests): string => {
  const pushed = fresh.find((row) => row.how === 'events');
  const listed = fresh.find((row) => row.how === 'lists');
  const fixed = (n: number | undefined) => (n === undefined || !Number.isFinite(n) ? 'n/a' : n.toFixed(0));
  return `The Asterisk provider against the double of ARI on this machine (no Asterisk: see the README's provider table). The built service in a process of its own, the double in the bench's process.

| the answer reaches the screen by | calls | p50 | p95 | max | target |
|---|---|---|---|---|---|
| ARI's event WebSocket (lists from the events; ARI asked every ${RECONCILE_MS / 1000} s to reconcile) | ${pushed?.samples ?? 0} | ${fixed(pushed?.p50)} ms | ${fixed(pushed?.p95)} ms | ${fixed(pushed?.max)} ms | p95 ≤ 300 ms: ${pushed && pushed.p95 <= 300 ? 'met' : '**missed**'} |
| lists only (the socket refused; ARI listed every 2 s, the default) | ${listed?.samples ?? 0} | ${fixed(listed?.p50)} ms | ${fixed(listed?.p95)} ms | ${fixed(listed?.max)} ms | (reference) |

The delay runs from the moment the double sends the events of the agent's answer (or, without the socket, changes what it lists) to the frame in Chromium that paints the row's "Talking"; one call at a time, answered at a random moment.

**Reconnect:** the event socket cut ${reconnect.rounds} times at ${reconnect.liveCalls} live calls, ${reconnect.changedWhileDown} calls changing while it was down (half ended, half new and answered): the calls were whole again ${fixed(reconnect.p50)} ms after the cut at p50, ${fixed(reconnect.max)} ms at worst (backoff from 250 ms, reopen, lists of channels and bridges, updates pushed).

**Requests to ARI per minute at ${requests.liveCalls} live calls** (a list every 2 s, registrations every 5 s): ${requests.socketUp} with the event socket up (the lists answer from the events; channels and bridges are asked every ${RECONCILE_MS / 1000} s), ${requests.socketDown} with it down (every list asks channels and bridges, every registration read asks the endpoints).`;
};
