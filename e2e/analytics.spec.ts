/** The analytics page against the real service: a week of backfilled history, in a real Chromium. */
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './support/axe.js';
import { E2E_CONFIG, startService, type ServiceProcess } from './support/service-process.js';

const SHOTS = 'test-results/screenshots';

let service: ServiceProcess;
test.beforeAll(async () => {
  service = await startService({ CALLBOARD_CONFIG: E2E_CONFIG });
});
test.afterAll(async () => {
  await service?.stop();
});

test('the analytics page shows a backfilled week, changes range through the URL, exports CSV, and passes axe', async ({ page }) => {
  await page.goto(service.dashboardURL);
  await expect(page.getByRole('table', { name: 'Live calls' })).toBeVisible();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Analytics' }).click();
  await expect(page.getByRole('heading', { name: 'Analytics', level: 1 })).toBeVisible();

  // The SIP trunk runs at real speed, so its backfill spans seven calendar days; the fast PBX's (20 days a day) stops at the
  // fixture's budget of calls.
  await page.getByLabel('Provider').selectOption({ label: 'SIP trunk' });
  await page.getByRole('group', { name: 'Time range' }).getByRole('button', { name: '7 d' }).click();
  await expect(page).toHaveURL(/[?&]range=7d/);
  await expect(page.getByRole('button', { name: '7 d' })).toHaveAttribute('aria-pressed', 'true');
  const chart = page.getByRole('img', { name: /Chart of concurrent calls over the range\. Peak \d+ live calls/ });
  await expect(chart).toBeVisible();
  // The past fills in the background after the service starts; while it does, the page says so and follows it.
  await expect(page.getByText(/History is still filling/)).toHaveCount(0, { timeout: 30_000 });

  // The backfill filled every day of the week: each weekday row of the heatmap counts calls.
  const hours = page.getByRole('table', { name: /Calls started per hour, last 7 days/ });
  const callsOn = async (day: string) =>
    (await hours.getByRole('row', { name: new RegExp(`^${day}\\b`) }).getByRole('cell').allTextContents()).map(Number).reduce((a, b) => a + b, 0);
  for (const day of ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'])
    await expect.poll(() => callsOn(day), { message: day, timeout: 15_000 }).toBeGreaterThan(0);
  await expect(page.getByRole('table', { name: /Calls per subscriber/ }).getByRole('row')).not.toHaveCount(1);
  await expect(page.getByText(/of \d+ calls started in this range were missed/)).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/analytics-7d.png`, fullPage: true });

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('region', { name: 'Concurrent calls' }).getByRole('button', { name: 'Export CSV' }).click(),
  ]);
  const csv = readFileSync(await download.path(), 'utf8').replace(/^\uFEFF/, '').trim().split('\r\n');
  expect(csv[0]).toMatch(/^start,start \(.+\),peak,average,peakInbound,peakOutbound,started,missed$/);
  expect(csv.length).toBeGreaterThan(300);

  await page.getByRole('button', { name: 'Custom' }).click();
  const custom = page.getByRole('form', { name: 'Custom range' });
  await custom.getByLabel(/^From/).fill('2026-01-02T10:00');
  await custom.getByLabel(/^To/).fill('2026-01-01T10:00');
  await custom.getByRole('button', { name: 'Show range' }).click();
  await expect(custom.getByRole('alert')).toHaveText('The start must be before the end.');
  await expectNoSeriousA11yViolations(page);

  await page.emulateMedia({ colorScheme: 'dark' });
  await page.getByRole('button', { name: '24 h' }).click();
  await expect(page).toHaveURL(/[?&]range=24h/);
  await expect(chart).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/analytics-24h-dark.png`, fullPage: true });
  await expectNoSeriousA11yViolations(page);
});
