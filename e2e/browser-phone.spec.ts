/**
 * The agent's browser as their phone, and a supervisor listening in, with real media: Kamailio
 * with its WebSocket, rtpengine in userspace, baresip phones whose microphone is a 440 Hz sine and
 * which record what they hear, and Chromium whose fake microphone plays a 1000 Hz tone. What each
 * side heard is measured: in the browser by the spectrum of each received track, at a baresip
 * phone from its recording. Chromium keeps its default of hiding local addresses behind mDNS names:
 * rtpengine cannot resolve them, and learns each browser's address from the browser's own ICE checks
 * (a peer-reflexive candidate), so no flag is needed on loopback. Toward a listener rtpengine is
 * ICE-lite (ng-client.ts says why).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { paths } from '../src/contract/paths.js';
import { readWav, strongestTone, toneWav } from '../src/testbed/sip/audio-tone.js';
import { startSipTestbed, type SipTestbed } from '../src/testbed/sip/sip-testbed.js';
import { kamailioProviderConfig, type AgentSpec } from '../src/testbed/sip/testbed-provider.js';
import { AUDIO_PROBE_INIT, hear, peerConnectionCount } from './support/audio-probe.js';
import { expectNoSeriousA11yViolations } from './support/axe.js';
import { startService, type ServiceProcess } from './support/service-process.js';

const AGENT: AgentSpec = { subscriberID: 'web-001', sipUser: '1901', firstName: 'Rosa', lastName: 'Parks', extension: '901' };
const CUSTOMER = '15550207001';
const REMOTE = '15550207002';
const QUEUE_NUMBER = '8000';
const AGENT_TOKEN = 'e2e-browser-agent-token-0123456789';
const SUPERVISOR_TOKEN = 'e2e-browser-supervisor-token-0123';
const BROWSER_TONE = 1000;
const PHONE_TONE = 440;
const TONES = [PHONE_TONE, BROWSER_TONE, 2000];
const SHOTS = 'test-results/screenshots';
const scope = { accountID: 'e2e', applicationID: 'support', providerID: 'kamailio' };

// Chromium's fake microphone plays this file; it must exist before the browser starts.
const TONE_FILE = join(tmpdir(), `callboard-e2e-tone-${BROWSER_TONE}.wav`);
writeFileSync(TONE_FILE, toneWav(BROWSER_TONE, 30));

test.use({
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
      `--use-file-for-fake-audio-capture=${TONE_FILE}`,
      '--autoplay-policy=no-user-gesture-required',
    ],
  },
  permissions: ['microphone'],
});

let bed: SipTestbed;
let service: ServiceProcess;
let configDir: string;

test.beforeAll(async () => {
  bed = await startSipTestbed({
    webrtc: true,
    phones: [{ user: CUSTOMER, record: true }, { user: REMOTE, record: true }],
    huntGroups: [{ number: QUEUE_NUMBER, queue: 'support', members: [AGENT.sipUser] }],
  });
  configDir = await mkdtemp(join(tmpdir(), 'callboard-browser-phone-e2e-'));
  const provider = kamailioProviderConfig(bed, [AGENT], {
    queues: [{ id: 'support', name: 'Support', numbers: [QUEUE_NUMBER], providerQueues: ['support'] }],
  });
  const config = {
    accounts: [
      {
        id: 'e2e',
        name: 'E2E Call Center',
        applications: [{ id: 'support', name: 'Support desk', providers: [provider] }],
        tokens: [
          { name: 'rosa', token: AGENT_TOKEN, applications: '*', permissions: ['calls:read', 'calls:write'], subscriberIDs: [AGENT.subscriberID] },
          { name: 'floor-supervisor', token: SUPERVISOR_TOKEN, applications: '*', permissions: ['calls:read', 'calls:control'] },
        ],
      },
    ],
  };
  await writeFile(join(configDir, 'callboard.json'), JSON.stringify(config));
  service = await startService({ CALLBOARD_CONFIG: join(configDir, 'callboard.json') });
});

test.afterAll(async () => {
  await service?.stop();
  await bed?.stop();
  if (configDir) await rm(configDir, { recursive: true, force: true });
});

const openAs = async (browser: Browser, token: string, size = { width: 1280, height: 720 }): Promise<Page> => {
  const context = await browser.newContext({ viewport: size, permissions: ['microphone'] });
  const page = await context.newPage();
  await page.addInitScript(AUDIO_PROBE_INIT);
  await page.goto(`${service.baseURL}/#token=${token}`);
  return page;
};

/** The agent's page with the browser phone on and registered. */
const agentWithPhone = async (browser: Browser): Promise<Page> => {
  const page = await openAs(browser, AGENT_TOKEN);
  await page.getByRole('switch', { name: /Browser phone/ }).click();
  await expect(page.getByRole('region', { name: 'Browser phone' })).toContainText('Ready for calls', { timeout: 15_000 });
  return page;
};

/** What a baresip phone heard in its latest call, from its recording (written as it hears). */
const heardByPhone = (user: string) => {
  const dir = bed.phone(user).recordings as string;
  const heard = readdirSync(dir)
    .filter((name) => name.endsWith('-dec.wav'))
    .sort()
    .at(-1);
  if (!heard) throw new Error(`phone ${user} recorded nothing`);
  const pcm = readWav(readFileSync(join(dir, heard)));
  return { seconds: pcm.samples.length / pcm.sampleRate, ...strongestTone(pcm, TONES) };
};

/** Waits until a live call's RTP reaches the page: the newest peer connection has received packets. */
const untilAudio = async (page: Page) => {
  await expect.poll(async () => (await hear(page, TONES, { ms: 200 })).tracks.some((track) => track.packets > 20), { timeout: 10_000 }).toBe(true);
};

/** Prints what was heard, for the record of a run (the assertions are below each). */
const say = (what: string, heard: unknown) => console.log(`${what}: ${JSON.stringify(heard)}`);

const hangUpEverything = async (...pages: Page[]) => {
  for (const page of pages) await page.context().close();
  for (const user of [CUSTOMER, REMOTE]) await bed.phone(user).control.hangup().catch(() => undefined);
};

test("a customer calls the queue, the agent's browser rings with the caller, and once answered each side hears the other", async ({ browser }) => {
  const agent = await agentWithPhone(browser);
  const phone = agent.getByRole('region', { name: 'Browser phone' });
  await expectNoSeriousA11yViolations(agent);

  const customer = bed.phone(CUSTOMER).control;
  const since = customer.seen;
  await customer.dial(bed.uriOf(QUEUE_NUMBER));
  await expect(phone.getByRole('button', { name: 'Answer' })).toBeVisible({ timeout: 10_000 });
  await expect(phone).toContainText('(555) 020-7001');
  await agent.screenshot({ path: `${SHOTS}/browser-phone-ringing.png` });
  await phone.getByRole('button', { name: 'Answer' }).click();
  await customer.waitFor((event) => event.type === 'CALL_ESTABLISHED', { since });

  await untilAudio(agent);
  const heard = await hear(agent, TONES);
  say('agent heard the customer', heard);
  expect(heard.tracks).toHaveLength(1);
  expect(heard.tracks[0]?.strongest, JSON.stringify(heard)).toBe(PHONE_TONE);
  expect(heard.packetsSent).toBeGreaterThan(0);
  await expect(phone.getByRole('button', { name: 'Hang up' })).toBeVisible();
  await agent.screenshot({ path: `${SHOTS}/browser-phone-talking.png` });
  await expectNoSeriousA11yViolations(agent);

  // The call is on the board, answered.
  const row = agent.getByRole('table', { name: 'Live calls' }).getByRole('row').filter({ hasText: '(555) 020-7001' });
  await expect(row).toContainText('Talking', { timeout: 10_000 });

  await phone.getByRole('button', { name: 'Hang up' }).click();
  await customer.waitFor((event) => event.type === 'CALL_CLOSED', { since });
  const atCustomer = heardByPhone(CUSTOMER);
  say('the customer heard the agent', atCustomer);
  expect(atCustomer.seconds).toBeGreaterThan(1);
  expect(atCustomer.hz, JSON.stringify(atCustomer)).toBe(BROWSER_TONE);
  await hangUpEverything(agent);
});

test('click-to-call from the browser: the browser is the agent\'s leg, the remote party answers, and audio flows both ways', async ({ browser }) => {
  const agent = await agentWithPhone(browser);
  const phone = agent.getByRole('region', { name: 'Browser phone' });
  const remote = bed.phone(REMOTE).control;
  const since = remote.seen;

  const panel = agent.getByRole('region', { name: 'Place a call' });
  await panel.getByRole('textbox', { name: 'Number to call' }).fill(`+${REMOTE}`);
  const placed = agent.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith(paths.makeCall(scope)));
  await panel.getByRole('button', { name: 'Place call' }).click();
  expect((await placed).status()).toBe(204);
  // The browser answers its own click-to-call's first leg; the phone system then moves it to the number.
  await remote.waitFor((event) => event.type === 'CALL_ESTABLISHED', { since, timeoutMs: 15_000 });
  await expect(phone.getByRole('button', { name: 'Hang up' })).toBeVisible();

  await untilAudio(agent);
  const heard = await hear(agent, TONES);
  say('agent heard the remote party of a click-to-call', heard);
  expect(heard.tracks[0]?.strongest, JSON.stringify(heard)).toBe(PHONE_TONE);
  const row = agent.getByRole('table', { name: 'Live calls' }).getByRole('row').filter({ hasText: '(555) 020-7002' });
  await expect(row).toContainText('Outbound', { timeout: 10_000 });
  await expect(row).toHaveCount(1);

  await phone.getByRole('button', { name: 'Hang up' }).click();
  await remote.waitFor((event) => event.type === 'CALL_CLOSED', { since });
  const atRemote = heardByPhone(REMOTE);
  say('the remote party heard the agent', atRemote);
  expect(atRemote.hz, JSON.stringify(atRemote)).toBe(BROWSER_TONE);
  await hangUpEverything(agent);
});

test('two supervisors listen to a call at once: each hears both parties, and neither party hears them', async ({ browser }) => {
  const agent = await agentWithPhone(browser);
  const phone = agent.getByRole('region', { name: 'Browser phone' });
  const customer = bed.phone(CUSTOMER).control;
  const since = customer.seen;
  await customer.dial(bed.uriOf(QUEUE_NUMBER));
  await phone.getByRole('button', { name: 'Answer' }).click({ timeout: 10_000 });
  await customer.waitFor((event) => event.type === 'CALL_ESTABLISHED', { since });
  await untilAudio(agent);

  const supervisors: Page[] = [];
  for (const size of [{ width: 1280, height: 720 }, { width: 1920, height: 1080 }]) {
    const supervisor = await openAs(browser, SUPERVISOR_TOKEN, size);
    const row = supervisor.getByRole('table', { name: 'Live calls' }).getByRole('row').filter({ hasText: '(555) 020-7001' });
    await row.getByRole('button', { name: /^Listen/ }).click({ timeout: 10_000 });
    const panel = supervisor.getByRole('dialog', { name: /^Listening to/ });
    await expect(panel).toContainText(/listening/i, { timeout: 10_000 });
    supervisors.push(supervisor);
  }
  await supervisors[1]?.screenshot({ path: `${SHOTS}/listening-1920.png` });
  await expectNoSeriousA11yViolations(supervisors[0] as Page);

  for (const [i, supervisor] of supervisors.entries()) {
    await untilAudio(supervisor);
    const heard = await hear(supervisor, TONES, { ms: 2000 });
    say(`supervisor ${i + 1} heard`, heard);
    const strongest = heard.tracks.map((track) => track.strongest).sort();
    expect(strongest, `supervisor ${i + 1}: ${JSON.stringify(heard)}`).toEqual([PHONE_TONE, BROWSER_TONE].sort());
    for (const track of heard.tracks) expect(track.packets, `supervisor ${i + 1}`).toBeGreaterThan(20);
    expect(heard.packetsSent, `supervisor ${i + 1} sends nothing`).toBe(0);
  }
  // The agent's browser still has one call, and hears the customer only.
  expect(await peerConnectionCount(agent)).toBe(1);
  expect((await hear(agent, TONES)).tracks.map((track) => track.strongest)).toEqual([PHONE_TONE]);

  for (const supervisor of supervisors) await supervisor.getByRole('button', { name: 'Stop listening' }).click();
  await phone.getByRole('button', { name: 'Hang up' }).click();
  await customer.waitFor((event) => event.type === 'CALL_CLOSED', { since });
  // The customer heard the agent, not a third voice: their recording's strongest tone is the browser's.
  expect(heardByPhone(CUSTOMER).hz).toBe(BROWSER_TONE);
  await hangUpEverything(agent, ...supervisors);
});

test('the phone says when its connection drops and registers again on its own', async ({ browser }) => {
  const agent = await agentWithPhone(browser);
  const phone = agent.getByRole('region', { name: 'Browser phone' });
  // Kamailio closes every WebSocket it holds, as a restart or a network cut would.
  // ws.dump lists each as "<id>: ws:<browser> -> ws:<Kamailio> (state: OPEN, …)".
  const sockets = (await bed.rpc('ws.dump', [], AbortSignal.timeout(2000))) as { connections?: string[] };
  const ids = (sockets.connections ?? []).map((connection) => Number(/^(\d+):/.exec(connection)?.[1]));
  expect(ids.length).toBeGreaterThan(0);
  for (const id of ids) await bed.rpc('ws.close', [id], AbortSignal.timeout(2000));
  await expect(phone).toContainText(/reconnecting/i, { timeout: 10_000 });
  await expect(phone).toContainText('Ready for calls', { timeout: 20_000 });

  // And it takes calls again.
  const customer = bed.phone(CUSTOMER).control;
  const since = customer.seen;
  await customer.dial(bed.uriOf(QUEUE_NUMBER));
  await expect(phone.getByRole('button', { name: 'Answer' })).toBeVisible({ timeout: 10_000 });
  await phone.getByRole('button', { name: 'Decline' }).click();
  await customer.waitFor((event) => event.type === 'CALL_CLOSED', { since });
  await hangUpEverything(agent);
});
