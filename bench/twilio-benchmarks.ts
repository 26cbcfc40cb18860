/**
 * The Twilio provider, against the double of Twilio's API (no account): how soon a call's answer
 * reaches the pixel in Chromium when Twilio's status callbacks tell it, and when only lists do; and
 * how many requests to Twilio one list costs at 50 and 1,000 live calls.
 */
import type { Browser } from 'playwright-core';
import { paths } from '../src/contract/paths.js';
import { ManualClock } from '../src/server/clock.js';
import { REQUESTS_PER_LIST } from '../src/server/providers/twilio/twilio-phone-system.js';
import { startBuiltService } from '../src/testbed/built-service.js';
import { TwilioDouble } from '../src/testbed/twilio/twilio-double.js';
import { freePort } from '../src/testbed/free-ports.js';
import { TEST_ACCOUNT_SID, TEST_AGENTS, TEST_AUTH_TOKEN, TEST_NUMBER, twilioOnDouble, twilioProviderConfig } from '../src/testbed/twilio/twilio-testbed.js';
import { paintedTalking } from './dashboard-benchmarks.js';
import { BENCH_TOKEN } from './support/bench-token.js';

export interface TwilioFreshness {
  how: 'callbacks' | 'lists';
  samples: number;
  p50: number;
  p95: number;
  max: number;
  /** Lists the service asked of Twilio while the samples ran. */
  lists: number;
}

export interface TwilioRequests {
  liveCalls: number;
  legs: number;
  /** Requests of one list by the provider. */
  requests: number;
  /** Reference: the same legs read in Twilio's default pages of 50 (as its helper library's `calls.list()` does). */
  defaultPages: number;
  listMs: number;
}

/** What Twilio's own `calls.list()` would ask for the live and recently ended legs, 50 a page, one status at a time. */
const DEFAULT_PAGE_SIZE = 50;

const quantile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))] ?? NaN;

const scope = { accountID: 'bench', applicationID: 'app', providerID: 'twilio' };

/**
 * Inbound calls dialed to an agent, answered by the agent one at a time: from the moment the double
 * answers the agent's leg (and posts its callback) to the painted "Talking". With callbacks the
 * service lists every 30 s, so the answer comes by callback; without, it lists every 2 s (the
 * Twilio provider's default) and only a list tells.
 */
export const twilioFreshness = async (browser: Browser, samples: number, how: TwilioFreshness['how']): Promise<TwilioFreshness> => {
  const double = await TwilioDouble.start({ accountSid: TEST_ACCOUNT_SID, authToken: TEST_AUTH_TOKEN });
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const provider = twilioProviderConfig({
    apiBaseURL: double.url,
    ...(how === 'callbacks' ? { webhookBaseURL: base, syncIntervalMs: 30_000, staleAfterMs: 120_000 } : { syncIntervalMs: 2000 }),
  });
  const service = await startBuiltService({
    name: 'bench-twilio',
    port,
    config: {
      accounts: [
        {
          id: scope.accountID,
          name: 'Bench',
          applications: [{ id: scope.applicationID, name: 'App', providers: [provider] }],
          tokens: [{ name: 'bench', token: BENCH_TOKEN, applications: '*', permissions: ['calls:read', 'calls:write'] }],
        },
      ],
    },
  }).catch(async (error: unknown) => {
    await double.close();
    throw error;
  });
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.addInitScript('globalThis.__name = (fn) => fn;');
  const webhook = `${base}${paths.webhook(provider.type, scope)}`;
  const delays: number[] = [];
  try {
    await page.goto(`${base}/?sort=started&dir=desc#token=${BENCH_TOKEN}`);
    await page.getByText(/· pushed/).waitFor({ timeout: 30_000 });
    const listsBefore = double.requests.filter((request) => request.method === 'GET').length;
    for (let i = 0; i < samples; i += 1) {
      const from = `+1555010${String(2000 + i)}`;
      const root = double.inbound({ from, to: `+${TEST_NUMBER}`, ...(how === 'callbacks' ? { statusCallback: webhook } : {}) });
      const [leg] = double.dialAgents(root, [TEST_AGENTS[i % TEST_AGENTS.length]?.device as string], how === 'callbacks' ? { statusCallback: webhook } : {});
      const formatted = `+1 (555) 010-${String(2000 + i)}`;
      await page.getByRole('row').filter({ hasText: formatted }).waitFor({ timeout: 30_000 });
      // A moment at random within the list interval: lists are not timed to the answers.
      await new Promise((resolve) => setTimeout(resolve, Math.round(Math.random() * 2000)));
      const painted = paintedTalking(page, formatted);
      const answeredAt = Date.now();
      double.answer(leg as string);
      delays.push((await painted) - answeredAt);
      double.hangUp(root);
    }
    const lists = (double.requests.filter((request) => request.method === 'GET').length - listsBefore) / 4;
    return { how, samples, p50: quantile(delays, 0.5), p95: quantile(delays, 0.95), max: Math.max(...delays), lists: Math.round(lists) };
  } finally {
    await page.close();
    await service.stop();
    await double.close();
  }
};

/** One list by the provider at `liveCalls` live calls, each an inbound call and its agent's answered leg, after a first list. */
export const twilioRequestsPerList = async (liveCalls: number): Promise<TwilioRequests> => {
  const clock = new ManualClock(Date.now());
  const double = await TwilioDouble.start({ accountSid: TEST_ACCOUNT_SID, authToken: TEST_AUTH_TOKEN, now: () => clock.now() });
  try {
    for (let i = 0; i < liveCalls; i += 1) {
      const root = double.inbound({ from: `+1555030${String(i).padStart(4, '0')}`, to: `+${TEST_NUMBER}` });
      const [leg] = double.dialAgents(root, [TEST_AGENTS[i % TEST_AGENTS.length]?.device as string], { timeoutSeconds: 3600 });
      double.answer(leg as string);
    }
    const twilio = twilioOnDouble(double, clock);
    await twilio.listCalls(AbortSignal.timeout(30_000));
    clock.advance(2000);
    const before = twilio.client.requests;
    const started = performance.now();
    const calls = await twilio.listCalls(AbortSignal.timeout(30_000));
    const listMs = performance.now() - started;
    if (calls.length !== liveCalls) throw new Error(`listed ${calls.length} calls of ${liveCalls}`);
    const legs = double.calls().length;
    // Queued and ringing (none here) take a page each; in progress, every leg; the recently ended, a page.
    const defaultPages = 2 + Math.max(1, Math.ceil(legs / DEFAULT_PAGE_SIZE)) + 1;
    return { liveCalls, legs, requests: twilio.client.requests - before, defaultPages, listMs };
  } finally {
    await double.close();
  }
};

export const twilioSection = (fresh: TwilioFreshness[], requests: TwilioRequests[]): string => {
  const pushed = fresh.find((row) => row.how === 'callbacks');
  const listed = fresh.find((row) => row.how === 'lists');
  const fixed = (n: number | undefined) => (n === undefined || !Number.isFinite(n) ? 'n/a' : n.toFixed(0));
  return `The Twilio provider against the double of Twilio's Calls resource on this machine (no Twilio account: see the README's provider table). The built service in a process of its own, the double in the bench's process.

| the answer reaches the screen by | calls | p50 | p95 | max | lists asked meanwhile | target |
|---|---|---|---|---|---|---|
| Twilio's status callback (the service lists every 30 s) | ${pushed?.samples ?? 0} | ${fixed(pushed?.p50)} ms | ${fixed(pushed?.p95)} ms | ${fixed(pushed?.max)} ms | ${pushed?.lists ?? 'n/a'} | p95 ≤ 300 ms: ${pushed && pushed.p95 <= 300 ? 'met' : '**missed**'} |
| lists only (no \`webhookBaseURL\`; every 2 s, the default) | ${listed?.samples ?? 0} | ${fixed(listed?.p50)} ms | ${fixed(listed?.p95)} ms | ${fixed(listed?.max)} ms | ${listed?.lists ?? 'n/a'} | (reference) |

The delay runs from the moment the double answers the agent's leg (and posts its signed callback) to the frame in Chromium that paints the row's "Talking"; one call at a time, answered at a random moment.

| live calls | legs at Twilio | requests per list (at most ${REQUESTS_PER_LIST}) | reference: Twilio's default pages of ${DEFAULT_PAGE_SIZE} | one list took |
|---|---|---|---|---|
${requests.map((row) => `| ${row.liveCalls.toLocaleString('en')} | ${row.legs.toLocaleString('en')} | ${row.requests} | ${row.defaultPages} | ${row.listMs.toFixed(0)} ms |`).join('\n')}

A list asks for the queued, ringing and in-progress legs and those ended since the last list (with 10 s of overlap), 1,000 legs a page.`;
};
