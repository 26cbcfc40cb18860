/**
 * The dashboard over an Asterisk provider, against the double of ARI in this process: calls ring,
 * connect and end on screen as ARI's event WebSocket tells them, with lists 30 s apart while the
 * socket is up, so each step seen within seconds came pushed. Click-to-call rings the agent's phone
 * first, then the dialplan dials the customer. While the socket is down the live view says so, and
 * calls still arrive, polled.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { formatPhoneNumber } from '../src/web/lib/format.js';
import { loadPhoneRules } from '../src/web/lib/phone-rules-loader.js';
import { AriDouble } from '../src/testbed/asterisk/ari-double.js';
import { ARI_PASSWORD, ARI_USER, asteriskProviderConfig, endpointOf, TEST_AGENTS } from '../src/testbed/asterisk/asterisk-testbed.js';
import { freePort } from '../src/testbed/free-ports.js';
import { expectNoSeriousA11yViolations } from './support/axe.js';
import { E2E_TOKEN, startService, type ServiceProcess } from './support/service-process.js';

const REMOTE = '442079460958';
const PUSHED_WITHIN_MS = 3000;

let double: AriDouble;
let service: ServiceProcess;
let configDir: string;

test.beforeAll(async () => {
  await loadPhoneRules();
  double = await AriDouble.start({ username: ARI_USER, password: ARI_PASSWORD, endpoints: TEST_AGENTS.map(endpointOf) });
  const port = await freePort();
  configDir = await mkdtemp(join(tmpdir(), 'callboard-asterisk-e2e-'));
  const config = {
    accounts: [
      {
        id: 'e2e',
        name: 'E2E Call Center',
        applications: [{ id: 'support', name: 'Support desk', providers: [asteriskProviderConfig({ ariURL: double.url, syncIntervalMs: 1000 })] }],
        tokens: [{ name: 'e2e', token: E2E_TOKEN, applications: '*', permissions: ['calls:read', 'calls:write'] }],
      },
    ],
  };
  await writeFile(join(configDir, 'callboard.json'), JSON.stringify(config));
  service = await startService({ CALLBOARD_CONFIG: join(configDir, 'callboard.json'), PORT: String(port) });
});

test.afterAll(async () => {
  await service?.stop();
  await double?.stop();
  if (configDir) await rm(configDir, { recursive: true, force: true });
  expect(double?.violations ?? []).toEqual([]);
});

test('an inbound Asterisk call rings two phones, connects to the one that answers, and ends, as ARI\'s events tell', async ({ page }) => {
  await page.goto(service.dashboardURL);
  await expect(page.getByText('No calls right now')).toBeVisible();
  const lists = double.requests.filter((request) => request.path === '/ari/channels').length;
  const call = double.inboundCall({ name: 'Jane Roe', number: '15550104001' }).ring(['PJSIP/101', 'PJSIP/102']);
  const row = page.getByRole('table', { name: 'Live calls' }).getByRole('row').filter({ hasText: formatPhoneNumber('15550104001') });
  await expect(row).toContainText('Ringing', { timeout: PUSHED_WITHIN_MS });
  await expect(row).toContainText('Inbound');
  await expectNoSeriousA11yViolations(page);
  call.answer('PJSIP/102');
  await expect(row).toContainText('Talking', { timeout: PUSHED_WITHIN_MS });
  await expect(row).toContainText('Max Planck');
  call.agentHangsUp('PJSIP/102');
  await expect(row).toContainText('Ended', { timeout: PUSHED_WITHIN_MS });
  await expect(row).not.toContainText('Missed');
  // Everything above came over the socket: ARI's channels were not listed meanwhile.
  expect(double.requests.filter((request) => request.path === '/ari/channels').length).toBe(lists);
});

test('click-to-call through Asterisk rings the agent\'s phone, then the dialplan dials the customer', async ({ page }) => {
  await page.goto(service.dashboardURL);
  const panel = page.getByRole('region', { name: 'Place a call' });
  double.behave('PJSIP/103', { answerAfterMs: 600 });
  double.behave(`number:${REMOTE}`, { answerAfterMs: 600, talkMs: 60_000 });
  await panel.getByLabel('Subscriber', { exact: true }).selectOption('agt-103');
  await panel.getByLabel('Number to call').fill('+44 20 7946 0958');
  await panel.getByRole('button', { name: 'Place call' }).click();
  const row = page.getByRole('table', { name: 'Live calls' }).getByRole('row').filter({ hasText: formatPhoneNumber(REMOTE) });
  await expect(row).toContainText('Outbound', { timeout: PUSHED_WITHIN_MS });
  await expect(row).toContainText('Talking', { timeout: PUSHED_WITHIN_MS });
  await expect(panel).toContainText('Connected', { timeout: PUSHED_WITHIN_MS });
  expect(double.requests.find((request) => request.method === 'POST')?.query).toMatchObject({ endpoint: 'PJSIP/103', extension: REMOTE, context: 'from-internal' });
  for (const channel of double.liveChannels()) double.hangup(channel.id);
  await expect(row).toContainText('Ended', { timeout: PUSHED_WITHIN_MS });
});

test('while ARI\'s event socket is down the live view says so, and calls still arrive, polled', async ({ page }) => {
  await page.goto(service.dashboardURL);
  await expect(page.getByText(/· pushed/)).toBeVisible();
  double.refuseEvents = true;
  double.cutEvents();
  const notice = page.getByRole('status').filter({ hasText: 'Live, with slower updates' });
  await expect(notice).toContainText('event socket is down', { timeout: PUSHED_WITHIN_MS });
  await expectNoSeriousA11yViolations(page);
  await page.screenshot({ path: test.info().outputPath('asterisk-socket-down.png') });
  double.inboundCall({ name: '', number: '15550104003' }).ring(['PJSIP/101']);
  const row = page.getByRole('table', { name: 'Live calls' }).getByRole('row').filter({ hasText: formatPhoneNumber('15550104003') });
  await expect(row).toContainText('Ringing', { timeout: PUSHED_WITHIN_MS });
  double.refuseEvents = false;
  await expect(notice).toBeHidden({ timeout: 15_000 });
});
