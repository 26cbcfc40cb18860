/** The dashboard over a real phone system: Kamailio and SIP phones of the test bed, a real call in the table. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { formatPhoneNumber } from '../src/web/lib/format.js';
import { loadPhoneRules } from '../src/web/lib/phone-rules-loader.js';
import { startSipTestbed, type SipTestbed } from '../src/testbed/sip-testbed.js';
import { kamailioProviderConfig } from '../src/testbed/testbed-provider.js';
import { E2E_TOKEN, startService, type ServiceProcess } from './support/service-process.js';

const CUSTOMER = '15550003001';
const agents = [{ subscriberID: 'agt-lin', sipUser: '1101', firstName: 'Lin', lastName: 'Clark', extension: '111' }];

let bed: SipTestbed;
let service: ServiceProcess;
let configDir: string;

test.beforeAll(async () => {
  // Numbers are expected as the dashboard writes them.
  await loadPhoneRules();
  bed = await startSipTestbed({ phones: [{ user: '1101' }, { user: CUSTOMER }] });
  configDir = await mkdtemp(join(tmpdir(), 'callboard-sip-e2e-'));
  const config = {
    accounts: [
      {
        id: 'e2e',
        name: 'E2E Call Center',
        applications: [{ id: 'support', name: 'Support desk', providers: [kamailioProviderConfig(bed, agents)] }],
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

test('a real SIP call shows in the live table as an inbound call to the agent, and leaves it after the hang-up', async ({ page }) => {
  const customer = bed.phone(CUSTOMER).control;
  const since = customer.seen;
  await customer.dial(bed.uriOf('1101'));
  await customer.waitFor((event) => event.type === 'CALL_ESTABLISHED', { since });

  await page.goto(service.dashboardURL);
  const table = page.getByRole('table', { name: 'Live calls' });
  const row = table.getByRole('row').filter({ hasText: formatPhoneNumber(CUSTOMER) });
  await expect(row).toBeVisible({ timeout: 10_000 });
  await expect(row).toContainText('Lin Clark');

  await customer.hangup();
  await expect(row).toHaveCount(0, { timeout: 10_000 });
});
