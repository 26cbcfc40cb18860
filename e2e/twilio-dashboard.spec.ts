/**
 * The dashboard over a Twilio provider, against a double of Twilio's API in this process: calls
 * ring, connect and end on screen as the double's signed status callbacks tell the service, with
 * lists 30 s apart, so each step seen within seconds came pushed. Click-to-call rings the agent's
 * device first, then the customer.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { paths } from '../src/contract/paths.js';
import { formatPhoneNumber } from '../src/web/lib/format.js';
import { loadPhoneRules } from '../src/web/lib/phone-rules-loader.js';
import { TwilioDouble } from '../src/testbed/twilio/twilio-double.js';
import { freePort } from '../src/testbed/free-ports.js';
import { TEST_ACCOUNT_SID, TEST_AUTH_TOKEN, TEST_NUMBER, twilioProviderConfig } from '../src/testbed/twilio/twilio-testbed.js';
import { emulateSystemScheme, expectNoSeriousA11yViolations } from './support/axe.js';
import { E2E_TOKEN, startService, type ServiceProcess } from './support/service-process.js';

const scope = { accountID: 'e2e', applicationID: 'support', providerID: 'twilio' };
const CUSTOMER = '+15550104001';
const REMOTE = '442079460958';
/** Longer than any wait below: a step seen on screen came by callback, not by a list. */
const LIST_EVERY_MS = 30_000;
const PUSHED_WITHIN_MS = 3000;

let double: TwilioDouble;
let service: ServiceProcess;
let configDir: string;
let webhook: string;

test.beforeAll(async () => {
  await loadPhoneRules();
  double = await TwilioDouble.start({ accountSid: TEST_ACCOUNT_SID, authToken: TEST_AUTH_TOKEN });
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  webhook = `${base}${paths.webhook('twilio', scope)}`;
  configDir = await mkdtemp(join(tmpdir(), 'callboard-twilio-e2e-'));
  const config = {
    accounts: [
      {
        id: 'e2e',
        name: 'E2E Call Center',
        applications: [
          {
            id: 'support',
            name: 'Support desk',
            providers: [twilioProviderConfig({ apiBaseURL: double.url, webhookBaseURL: base, syncIntervalMs: LIST_EVERY_MS, staleAfterMs: 4 * LIST_EVERY_MS })],
          },
        ],
        tokens: [{ name: 'e2e', token: E2E_TOKEN, applications: '*', permissions: ['calls:read', 'calls:write'] }],
      },
    ],
  };
  await writeFile(join(configDir, 'callboard.json'), JSON.stringify(config));
  service = await startService({ CALLBOARD_CONFIG: join(configDir, 'callboard.json'), PORT: String(port) });
});

test.afterAll(async () => {
  await service?.stop();
  await double?.close();
  if (configDir) await rm(configDir, { recursive: true, force: true });
  expect(double?.violations ?? []).toEqual([]);
});

test('an inbound Twilio call rings, connects and ends on the dashboard as Twilio’s callbacks tell', async ({ page }) => {
  await page.goto(service.dashboardURL);
  await expect(page.getByText('No calls right now')).toBeVisible();
  const table = page.getByRole('table', { name: 'Live calls' });
  const root = double.inbound({ from: CUSTOMER, to: `+${TEST_NUMBER}`, statusCallback: webhook });
  const [agentLeg] = double.dialAgents(root, ['client:ada'], { statusCallback: webhook });
  const row = table.getByRole('row').filter({ hasText: formatPhoneNumber(CUSTOMER.slice(1)) });
  await expect(row).toContainText('Ringing', { timeout: PUSHED_WITHIN_MS });
  await expect(row).toContainText('Ada Lovelace');
  await expect(row).toContainText('Inbound');
  await expectNoSeriousA11yViolations(page);

  double.answer(agentLeg as string);
  await expect(row).toContainText('Talking', { timeout: PUSHED_WITHIN_MS });
  double.hangUp(root);
  await expect(row).toContainText('Ended', { timeout: PUSHED_WITHIN_MS });
  await expect(row).not.toContainText('Missed');
});

test('click-to-call through Twilio rings the agent’s device first, then connects the customer', async ({ page }) => {
  await page.goto(service.dashboardURL);
  const panel = page.getByRole('region', { name: 'Place a call' });
  // Twilio cannot tell whether a device is online: the picker says so rather than guess.
  await expect(panel.getByLabel('Subscriber', { exact: true }).getByRole('option', { name: /Max Planck.*online unknown/ })).toBeAttached();
  await panel.getByLabel('Subscriber', { exact: true }).selectOption('agt-max');
  await panel.getByLabel('Number to call').fill('+44 20 7946 0958');
  await panel.getByRole('button', { name: 'Place call' }).click();
  await expect(panel).toContainText(/Ringing Max/, { timeout: PUSHED_WITHIN_MS });
  const row = page.getByRole('table', { name: 'Live calls' }).getByRole('row').filter({ hasText: formatPhoneNumber(REMOTE) });
  await expect(row).toContainText('Ringing', { timeout: PUSHED_WITHIN_MS });
  await expect(row).toContainText('Outbound');

  const created = double.requests.find((request) => request.method === 'POST');
  expect(created?.form?.get('To')).toBe('sip:max@callboard-test.sip.twilio.com');
  const root = double.calls().find((call) => call.to === 'sip:max@callboard-test.sip.twilio.com')?.sid as string;
  double.answer(root);
  await expect.poll(() => double.children(root).length).toBe(1);
  double.answer(double.children(root)[0]?.sid as string);
  await expect(row).toContainText('Talking', { timeout: PUSHED_WITHIN_MS });
  await expect(panel).toContainText('Connected', { timeout: PUSHED_WITHIN_MS });
  double.hangUp(root);
  await expect(panel).toContainText('Call ended', { timeout: PUSHED_WITHIN_MS });
});

test('a caller who gave up is in "To call back" at once; called back from the panel and reached, they leave it (axe in both themes)', async ({ page }) => {
  const caller = '+15550104002';
  const formatted = formatPhoneNumber(caller.slice(1));
  // Every caller who gives up counts here, however soon: the test needs no five seconds of ringing.
  await page.goto(`${service.baseURL}/?slshort=0#token=${E2E_TOKEN}`);
  const panel = page.getByRole('region', { name: 'To call back' });
  await expect(panel).toContainText('Nobody to call back');

  const root = double.inbound({ from: caller, to: `+${TEST_NUMBER}`, statusCallback: webhook });
  double.dialAgents(root, ['client:ada'], { statusCallback: webhook });
  await expect(page.getByRole('table', { name: 'Live calls' }).getByRole('row').filter({ hasText: formatted })).toContainText('Ringing', { timeout: PUSHED_WITHIN_MS });
  double.hangUp(root);
  const entry = panel.getByRole('listitem').filter({ hasText: formatted });
  await expect(entry).toContainText('not called back yet', { timeout: PUSHED_WITHIN_MS });
  for (const scheme of ['light', 'dark'] as const) {
    await emulateSystemScheme(page, scheme);
    await expectNoSeriousA11yViolations(page);
  }

  // "Call back" fills click-to-call with the number and the agent the call rang; the agent places it.
  await entry.getByRole('button', { name: `Call back ${formatted}` }).click();
  const form = page.getByRole('region', { name: 'Place a call' });
  await expect(form.getByRole('textbox', { name: 'Number to call' })).toHaveValue(formatted);
  await expect(form.getByLabel('Subscriber', { exact: true })).toHaveValue('agt-ada');
  await form.getByRole('button', { name: 'Place call' }).click();
  await expect.poll(() => double.calls().find((call) => call.direction === 'outbound-api' && call.to === 'client:ada')?.sid).toBeDefined();
  const callback = double.calls().find((call) => call.direction === 'outbound-api' && call.to === 'client:ada')?.sid as string;
  double.answer(callback);
  await expect.poll(() => double.children(callback).length).toBe(1);
  await expect(entry).toContainText('called back 1 time, not reached', { timeout: PUSHED_WITHIN_MS });
  double.answer(double.children(callback)[0]?.sid as string);
  await expect(panel).toContainText('Nobody to call back', { timeout: PUSHED_WITHIN_MS });
  double.hangUp(callback);
});
