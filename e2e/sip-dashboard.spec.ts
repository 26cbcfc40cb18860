/**
 * The dashboard over a real phone system: Kamailio and SIP phones of the test bed. A real call in
 * the table, ended after the hang-up; a caller who gives up while it rings, a "Missed" row counted
 * in the missed tile; both leave the table keepEndedMs after their end.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { formatPhoneNumber } from '../src/web/lib/format.js';
import { loadPhoneRules } from '../src/web/lib/phone-rules-loader.js';
import { startSipTestbed, type SipTestbed } from '../src/testbed/sip/sip-testbed.js';
import { kamailioProviderConfig } from '../src/testbed/sip/testbed-provider.js';
import { E2E_TOKEN, startService, type ServiceProcess } from './support/service-process.js';

const CUSTOMER = '15550003001';
const CALLER_WHO_GIVES_UP = '15550003002';
const agents = [
  { subscriberID: 'agt-lin', sipUser: '1101', firstName: 'Lin', lastName: 'Clark', extension: '111' },
  { subscriberID: 'agt-max', sipUser: '1102', firstName: 'Max', lastName: 'Ortiz', extension: '112' },
];
/** Short, so the test sees ended calls leave the table. */
const KEEP_ENDED_MS = 8000;

let bed: SipTestbed;
let service: ServiceProcess;
let configDir: string;

test.beforeAll(async () => {
  // Numbers are expected as the dashboard writes them.
  await loadPhoneRules();
  bed = await startSipTestbed({
    phones: [{ user: '1101' }, { user: '1102', answerMode: 'manual' }, { user: CUSTOMER }, { user: CALLER_WHO_GIVES_UP }],
  });
  configDir = await mkdtemp(join(tmpdir(), 'callboard-sip-e2e-'));
  const config = {
    accounts: [
      {
        id: 'e2e',
        name: 'E2E Call Center',
        applications: [{ id: 'support', name: 'Support desk', providers: [kamailioProviderConfig(bed, agents, { keepEndedMs: KEEP_ENDED_MS })] }],
        tokens: [{ name: 'e2e', token: E2E_TOKEN, applications: '*', permissions: ['calls:read', 'calls:write'] }],
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

test('a real SIP call shows in the live table as an inbound call to the agent, ended after the hang-up, then leaves it', async ({ page }) => {
  const customer = bed.phone(CUSTOMER).control;
  const since = customer.seen;
  await customer.dial(bed.uriOf('1101'));
  await customer.waitFor((event) => event.type === 'CALL_ESTABLISHED', { since });

  await page.goto(service.dashboardURL);
  const table = page.getByRole('table', { name: 'Live calls' });
  const row = table.getByRole('row').filter({ hasText: formatPhoneNumber(CUSTOMER) });
  await expect(row).toBeVisible({ timeout: 10_000 });
  await expect(row).toContainText('Lin Clark');
  await expect(row).toContainText('Talking');

  await customer.hangup();
  await expect(row).toContainText('Ended', { timeout: 10_000 });
  await expect(row).toHaveCount(0, { timeout: KEEP_ENDED_MS + 10_000 });
});

test('a caller who gives up while it rings shows as a Missed row, counts in the missed tile, and stays counted when the row leaves', async ({ page }) => {
  await page.goto(service.dashboardURL);
  const missedTile = page.getByRole('group', { name: 'Missed, last 15 min' });
  const missedCount = missedTile.getByText(/^\d+$/);
  await expect(missedCount).toBeVisible({ timeout: 10_000 });
  const before = Number(await missedCount.textContent());

  const agent = bed.phone('1102').control;
  const caller = bed.phone(CALLER_WHO_GIVES_UP).control;
  const since = agent.seen;
  await caller.dial(bed.uriOf('1102'));
  await agent.waitFor((event) => event.type === 'CALL_INCOMING', { since });
  const row = page.getByRole('table', { name: 'Live calls' }).getByRole('row').filter({ hasText: formatPhoneNumber(CALLER_WHO_GIVES_UP) });
  await expect(row).toContainText('Ringing', { timeout: 10_000 });
  await expect(row).toContainText('Max Ortiz');

  await caller.hangup();
  await expect(row).toContainText('Missed', { timeout: 10_000 });
  await expect(row).toContainText('Inbound');
  await expect(missedCount).toHaveText(String(before + 1));

  await expect(row).toHaveCount(0, { timeout: KEEP_ENDED_MS + 10_000 });
  // Counted from the service's journal now, as long as it is within the last 15 minutes.
  await expect(missedCount).toHaveText(String(before + 1));
});
