/**
 * Browsers as phones through Kamailio and rtpengine (the SIP test bed, real media on loopback):
 * how soon a click-to-call rings the agent's browser, against a desk phone (baresip) rung the same
 * way; how soon the far end's answer is heard in the browser; and what 50 registered browsers with
 * 20 calls at once cost the service and rtpengine in CPU, against the same 50 with no calls.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { SoftphoneCredentials } from '../src/contract/softphone.js';
import { paths } from '../src/contract/paths.js';
import { startBuiltService, type BuiltService } from '../src/testbed/built-service.js';
import { serveBrowserPhonesPage, type PhoneCallTimes } from '../src/testbed/sip/browser-phones-page.js';
import { startSipTestbed, type SipTestbed } from '../src/testbed/sip/sip-testbed.js';
import { kamailioProviderConfig, type AgentSpec } from '../src/testbed/sip/testbed-provider.js';
import { BENCH_TOKEN } from './support/bench-token.js';

const BROWSERS = 50;
const PHONES_PER_PAGE = 10;
const CONCURRENT_CALLS = 20;
const scope = { accountID: 'bench', applicationID: 'app', providerID: 'pbx' };
const browserAgent = (i: number): AgentSpec => ({ subscriberID: `web-${i}`, sipUser: String(2000 + i), firstName: 'Web', lastName: `Agent ${i}`, extension: String(200 + i) });
const DESK_AGENT: AgentSpec = { subscriberID: 'desk-1', sipUser: '1001', firstName: 'Desk', lastName: 'Phone', extension: '101' };
const REMOTE = '15550209000';
const customer = (i: number) => `1555020${String(1000 + i)}`;

export interface Latency {
  samples: number;
  p50: number;
  p95: number;
  max: number;
}

export interface CpuShare {
  /** Per cent of one core, over the window. */
  service: number;
  rtpengine: number;
  kamailio: number;
}

export interface BrowserPhoneRuns {
  ringBrowser: Latency;
  ringDeskPhone: Latency;
  answerToAudio: Latency;
  idle: CpuShare;
  talking: CpuShare;
  /** Of the 20 calls at once: those that rang a browser, those it answered, and those whose audio it received. */
  callsRung: number;
  callsAnswered: number;
  callsWithAudio: number;
  /** From the 20 dials to the last of them answered (NaN when one never was). */
  allTalkingMs: number;
  windowSeconds: number;
}

const quantile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))] ?? NaN;
const latency = (values: number[]): Latency => ({ samples: values.length, p50: quantile(values, 0.5), p95: quantile(values, 0.95), max: Math.max(...values) });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** CPU time (user + system) of a process and its threads, in clock ticks (100 a second on Linux). */
const cpuTicks = (pid: number): number => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
  return Number(fields[11]) + Number(fields[12]);
};
/** Every process of a group (Kamailio's workers). */
const groupTicks = (pgid: number): number => {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const fields = readFileSync(`/proc/${entry}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
      if (Number(fields[2]) === pgid) total += Number(fields[11]) + Number(fields[12]);
    } catch {
      // Gone meanwhile.
    }
  }
  return total;
};

const cpuOver = async (seconds: number, pids: { service: number; rtpengine: number; kamailio: number }): Promise<CpuShare> => {
  const read = () => ({ service: cpuTicks(pids.service), rtpengine: cpuTicks(pids.rtpengine), kamailio: groupTicks(pids.kamailio) });
  const before = read();
  const started = performance.now();
  await sleep(seconds * 1000);
  const after = read();
  const elapsed = (performance.now() - started) / 1000;
  const share = (key: keyof CpuShare) => ((after[key] - before[key]) / 100 / elapsed) * 100;
  return { service: share('service'), rtpengine: share('rtpengine'), kamailio: share('kamailio') };
};

const credentialsOf = async (service: BuiltService, subscriberID: string): Promise<SoftphoneCredentials> => {
  const response = await fetch(`${service.url}${paths.softphoneCredentials(scope)}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${BENCH_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ providerSubscriberID: subscriberID }),
  });
  if (!response.ok) throw new Error(`credentials for ${subscriberID}: ${response.status} ${await response.text()}`);
  return (await response.json()) as SoftphoneCredentials;
};

const placeCall = async (service: BuiltService, subscriberID: string) => {
  const response = await fetch(`${service.url}${paths.makeCall(scope)}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${BENCH_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ providerSubscriberID: subscriberID, remoteNumber: REMOTE }),
  });
  if (response.status !== 204) throw new Error(`click-to-call as ${subscriberID}: ${response.status} ${await response.text()}`);
};

const callsOf = (page: Page) => page.evaluate(() => (window as unknown as { phones: { calls: (PhoneCallTimes & { pc?: unknown })[] } }).phones.calls.map(({ pc: _pc, ...call }) => call));

export const browserPhoneRuns = async (samples: number, windowSeconds: number): Promise<BrowserPhoneRuns> => {
  const agents = Array.from({ length: BROWSERS }, (_, i) => browserAgent(i));
  const customers = Array.from({ length: CONCURRENT_CALLS }, (_, i) => customer(i));
  let bed: SipTestbed | undefined;
  let service: BuiltService | undefined;
  let browser: Browser | undefined;
  const site = await serveBrowserPhonesPage();
  try {
    bed = await startSipTestbed({
      webrtc: true,
      phones: [{ user: DESK_AGENT.sipUser, answerMode: 'manual' }, { user: REMOTE }, ...customers.map((user) => ({ user }))],
      registrationTimeoutMs: 30_000,
    });
    service = await startBuiltService({
      name: 'bench-browser-phones',
      config: {
        accounts: [
          {
            id: 'bench',
            name: 'Bench',
            applications: [{ id: 'app', name: 'App', providers: [{ ...kamailioProviderConfig(bed, [DESK_AGENT, ...agents]), id: 'pbx' }] }],
            tokens: [{ name: 'bench', token: BENCH_TOKEN, applications: '*', permissions: ['calls:read', 'calls:write'] }],
          },
        ],
      },
    });
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream', '--autoplay-policy=no-user-gesture-required', '--disable-gpu'],
    });
    const pages: Page[] = [];
    for (let first = 0; first < BROWSERS; first += PHONES_PER_PAGE) {
      const page = await browser.newPage();
      await page.goto(site.url);
      for (let i = first; i < first + PHONES_PER_PAGE; i += 1) {
        const credentials = await credentialsOf(service, agents[i]?.subscriberID ?? '');
        await page.evaluate(([index, given]) => (window as unknown as { phones: { register(i: number, c: unknown): Promise<void> } }).phones.register(index, given), [i, credentials] as const);
      }
      pages.push(page);
    }
    const pageOf = (i: number) => pages[Math.floor(i / PHONES_PER_PAGE)] as Page;
    const hangUp = async () => {
      for (const page of pages) await page.evaluate(() => (window as unknown as { phones: { hangUpAll(): void } }).phones.hangUpAll());
      await bed?.phone(REMOTE).control.hangup().catch(() => undefined);
      await sleep(500);
    };

    // Click-to-call: POST → the browser's INVITE; then the remote answers → the browser hears it.
    const ringBrowser: number[] = [];
    const answerToAudio: number[] = [];
    const remote = bed.phone(REMOTE).control;
    for (let n = 0; n < samples; n += 1) {
      const i = n % BROWSERS;
      const page = pageOf(i);
      const seenCalls = (await callsOf(page)).length;
      const remoteSince = remote.seen;
      const placedAt = Date.now();
      await placeCall(service, agents[i]?.subscriberID ?? '');
      const established = await remote.waitFor((event) => event.type === 'CALL_ESTABLISHED', { since: remoteSince, timeoutMs: 10_000 });
      let calls: PhoneCallTimes[] = [];
      const deadline = Date.now() + 10_000;
      for (;;) {
        calls = (await callsOf(page)).slice(seenCalls);
        if (calls.some((call) => call.referred && call.heardAt !== undefined) || Date.now() > deadline) break;
        await sleep(20);
      }
      const rung = calls.find((call) => !call.referred);
      const own = calls.find((call) => call.referred && call.heardAt !== undefined);
      if (!rung || !own?.heardAt) throw new Error(`click-to-call ${n}: the browser ${rung ? 'never heard the remote party' : 'never rang'}: ${JSON.stringify(calls)}`);
      ringBrowser.push(rung.rangAt - placedAt);
      answerToAudio.push(own.heardAt - established.at);
      await hangUp();
    }

    // Reference: the same click-to-call to a desk phone, to its ringing.
    const ringDeskPhone: number[] = [];
    const desk = bed.phone(DESK_AGENT.sipUser).control;
    for (let n = 0; n < samples; n += 1) {
      const since = desk.seen;
      const placedAt = Date.now();
      await placeCall(service, DESK_AGENT.subscriberID);
      const incoming = await desk.waitFor((event) => event.type === 'CALL_INCOMING', { since });
      ringDeskPhone.push(incoming.at - placedAt);
      await desk.hangup().catch(() => undefined);
      await sleep(300);
    }

    const pids = { service: service.program.pid, rtpengine: bed.webrtc?.rtpengine.program.pid ?? NaN, kamailio: bed.kamailioPid };
    const idle = await cpuOver(windowSeconds, pids);

    // 20 customers call 20 of the 50 browsers at once; every browser answers. CPU is measured once they all talk.
    const before = await Promise.all(pages.map(async (page) => (await callsOf(page)).length));
    const dialedAt = Date.now();
    const established = await Promise.all(
      customers.map(async (user, i) => {
        const phone = bed?.phone(user).control;
        if (!phone) return undefined;
        const since = phone.seen;
        await phone.dial(bed?.uriOf(agents[i]?.sipUser ?? '') ?? '');
        return phone.waitFor((event) => event.type === 'CALL_ESTABLISHED', { since, timeoutMs: 30_000 }).then((event) => event.at, () => undefined);
      }),
    );
    const allTalkingMs = Math.max(...established.map((at) => (at ?? NaN) - dialedAt));
    await sleep(1000);
    const talking = await cpuOver(windowSeconds, pids);
    const concurrent = (await Promise.all(pages.map(async (page, p) => (await callsOf(page)).slice(before[p])))).flat();
    const heard = concurrent.filter((call) => call.heardAt !== undefined);
    await hangUp();
    await Promise.all(customers.map((user) => bed?.phone(user).control.hangup().catch(() => undefined)));

    return {
      ringBrowser: latency(ringBrowser),
      ringDeskPhone: latency(ringDeskPhone),
      answerToAudio: latency(answerToAudio),
      idle,
      talking,
      callsRung: concurrent.length,
      callsAnswered: established.filter((at) => at !== undefined).length,
      callsWithAudio: heard.length,
      allTalkingMs,
      windowSeconds,
    };
  } finally {
    await browser?.close();
    await service?.stop();
    await bed?.stop();
    await site.close();
  }
};

const ms = (n: number) => `${Math.round(n)} ms`;
const cpu = (n: number) => `${n.toFixed(1)} %`;
const mark = (ok: boolean) => (ok ? 'met' : '**missed**');

export const browserPhoneSection = (r: BrowserPhoneRuns): string => `The SIP test bed: Kamailio 5.6 with its WebSocket and auth_ephemeral modules, rtpengine 10.5 in userspace, baresip phones, Chromium with a fake microphone; ${BROWSERS} JsSIP user agents registered with credentials the service issued, ${PHONES_PER_PAGE} to a page. Click-to-call through the service's API: Kamailio rings the agent's browser, the browser answers (it is the agent's own click), Kamailio REFERs it to the remote number, a baresip phone that answers at once.

| | samples | p50 | p95 | max | target |
|---|---:|---:|---:|---:|---|
| click-to-call → a desk phone (baresip) rings (reference) | ${r.ringDeskPhone.samples} | ${ms(r.ringDeskPhone.p50)} | ${ms(r.ringDeskPhone.p95)} | ${ms(r.ringDeskPhone.max)} | |
| click-to-call → the browser rings | ${r.ringBrowser.samples} | ${ms(r.ringBrowser.p50)} | ${ms(r.ringBrowser.p95)} | ${ms(r.ringBrowser.max)} | ≤ 300 ms p95: ${mark(r.ringBrowser.p95 <= 300)} |
| the far end answers → its first audio packet in the browser | ${r.answerToAudio.samples} | ${ms(r.answerToAudio.p50)} | ${ms(r.answerToAudio.p95)} | ${ms(r.answerToAudio.max)} | ≤ 500 ms p95: ${mark(r.answerToAudio.p95 <= 500)} |

The browser's ringing is timed from the API request to JsSIP's \`newRTCSession\`; the first audio from baresip's \`CALL_ESTABLISHED\` to the remote track's \`unmute\` (its first RTP packet, after ICE and DTLS), both on this machine's clock.

CPU over ${r.windowSeconds} s, per cent of one core (Kamailio: all its processes), from /proc:

| | service | rtpengine | Kamailio |
|---|---:|---:|---:|
| ${BROWSERS} browsers registered, no call (reference) | ${cpu(r.idle.service)} | ${cpu(r.idle.rtpengine)} | ${cpu(r.idle.kamailio)} |
| the same with ${CONCURRENT_CALLS} calls at once (baresip customers to browsers) | ${cpu(r.talking.service)} | ${cpu(r.talking.rtpengine)} | ${cpu(r.talking.kamailio)} |

Of the ${CONCURRENT_CALLS} calls at once, ${r.callsRung} rang a browser, ${r.callsAnswered} were answered (${Number.isFinite(r.allTalkingMs) ? `the last ${ms(r.allTalkingMs)} after the dials` : 'not all within 30 s'}) and ${r.callsWithAudio} carried audio to the browser. rtpengine runs in userspace here (\`--table=-1\`): every packet goes through its process, which a production relay with the kernel module would forward in the kernel.
`;
