/**
 * The reports page in a real Chromium against the real service and its simulated PBX with three
 * queues: the charts and tables show the figures the service serves, a table downloads as CSV,
 * "Export all calls" counts, then downloads the range's calls, and axe is clean in both themes and
 * on a phone.
 */
import { readFileSync } from 'node:fs';
import { expect, test, type Page, type Response } from '@playwright/test';
import { agentReportSchema, intervalReportSchema } from '../src/contract/reports.js';
import { emulateSystemScheme, expectNoSeriousA11yViolations } from './support/axe.js';
import { E2E_SUPERVISOR_TOKEN, startService, type ServiceProcess } from './support/service-process.js';

const CONFIG = 'e2e/fixtures/queues-config.json';
const SHOTS = 'test-results/screenshots';

let service: ServiceProcess;
test.beforeAll(async () => {
  service = await startService({ CALLBOARD_CONFIG: CONFIG });
});
test.afterAll(async () => {
  await service?.stop();
});

const isReport = (kind: 'intervals' | 'agents') => (response: Response) =>
  response.request().method() === 'GET' &&
  new URL(response.url()).pathname.endsWith(`/reports/${kind}`) &&
  response.status() === 200;

/**
 * Signs in, then opens the reports: through the navigation without `search`, else at the address with
 * it; resolves to the reports the page was served.
 */
const openReports = async (page: Page, search = '') => {
  await page.goto(`${service.baseURL}/#token=${E2E_SUPERVISOR_TOKEN}`);
  await expect(page.getByRole('heading', { name: 'Live calls', exact: true })).toBeVisible();
  if (!search) await page.goto(`${service.baseURL}/?provider=pbx-main`);
  const intervals = page.waitForResponse(isReport('intervals'));
  const agents = page.waitForResponse(isReport('agents'));
  if (search) await page.goto(`${service.baseURL}/reports?provider=pbx-main&${search}`);
  else await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Reports' }).click();
  await expect(page.getByRole('heading', { name: 'Reports', level: 1 })).toBeVisible();
  return {
    intervals: intervalReportSchema.parse(await (await intervals).json()),
    agents: agentReportSchema.parse(await (await agents).json()),
  };
};

test('the reports show the service’s intervals and agents in charts and tables, and a table downloads as CSV', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  // Today, in 15-minute intervals: the simulated PBX runs fast, so the day already has calls.
  const { intervals, agents } = await openReports(page);
  await expect(page).toHaveURL(/\/reports\?/);
  const quarter = page.waitForResponse(
    (r) => isReport('intervals')(r) && new URL(r.url()).searchParams.get('intervalMinutes') === '15',
  );
  await page.getByRole('group', { name: 'Interval' }).getByRole('button', { name: '15 min' }).click();
  await expect(page).toHaveURL(/[?&]interval=15(&|$)/);
  const report = intervalReportSchema.parse(await (await quarter).json());
  expect(report.intervalMinutes).toBe(15);
  expect(intervals.queues.map((queue) => queue.name)).toEqual(['Support', 'Billing', 'Sales', 'No queue']);

  const level = page.getByRole('region', { name: 'Service level per interval' });
  const levelTable = level.getByRole('table', { name: /Service level per 15-minute interval and queue/ });
  await expect(levelTable).toBeVisible();
  // The first rows are the first interval's, a row per queue in the report's order, with the offered calls as served.
  const firstRows = report.rows.slice(0, report.queues.length);
  for (const [i, row] of firstRows.entries()) {
    const cells = levelTable
      .getByRole('row')
      .nth(i + 1)
      .getByRole('cell');
    await expect(cells.nth(0)).toHaveText(report.queues.find((queue) => queue.queueID === row.queueID)?.name ?? 'No queue');
    await expect(cells.nth(1)).toHaveText(String(row.offered));
  }
  // Each queue's service level and its target: two lines a queue.
  await level.scrollIntoViewIfNeeded();
  await expect(level.locator('.recharts-line')).toHaveCount(6);
  await expect(level.getByRole('list', { name: 'Legend' })).toContainText('Sales target (thin, dashed)');

  const staffing = page.getByRole('region', { name: 'Offered calls and staffing' });
  await staffing.scrollIntoViewIfNeeded();
  await expect(staffing.locator('.recharts-line')).toHaveCount(2);
  await staffing.getByRole('combobox', { name: 'Show' }).selectOption({ label: 'Sales' });
  await expect(page).toHaveURL(/[?&]staffing=sales(&|$)/);
  await expect(staffing.getByRole('table').getByRole('row').nth(1).getByRole('cell').first()).toHaveText('Sales');

  const agentPanel = page.getByRole('region', { name: "Agents' time" });
  await agentPanel.scrollIntoViewIfNeeded();
  const longest = [...agents.agents].sort((a, b) => b.loggedInSeconds - a.loggedInSeconds)[0];
  expect(longest).toBeDefined();
  await expect(agentPanel.getByRole('table').getByRole('row').nth(1).getByRole('rowheader')).toContainText(
    `(${longest?.extension})`,
  );
  await expect(agentPanel.locator('.recharts-bar-rectangle').first()).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/reports-1280.png`, fullPage: true });

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    level.getByRole('button', { name: 'Download CSV' }).click(),
  ]);
  const csv = readFileSync(await download.path(), 'utf8')
    .replace(/^\uFEFF/, '')
    .trim()
    .split('\r\n');
  expect(csv[0]).toMatch(/^start,start \(.+\),queueID,queue,answerWithinSeconds,shortAbandonSeconds,serviceLevelTarget,offered,/);
  // Today's report grows by a minute at a time: the file holds at least the intervals first served, from the same first one.
  expect(csv.length - 1).toBeGreaterThanOrEqual(report.rows.length);
  expect(csv[1]?.startsWith(`${report.rows[0]?.start},`)).toBe(true);
});

test('Export all calls says how many calls and how large before it downloads them with the token in a header', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await openReports(page, 'period=today&interval=30&queue=support');
  const panel = page.getByRole('region', { name: 'Export all calls' });
  await panel.getByRole('button', { name: 'Export all calls…' }).click();
  const sized = panel.getByText(/^[\d,]+ calls, about [\d.]+ [KMG]?B as CSV\.$/);
  await expect(sized).toBeVisible({ timeout: 15_000 });
  const calls = Number((await sized.textContent())?.split(' ')[0]?.replaceAll(',', ''));
  expect(calls).toBeGreaterThan(0);
  const exported = page.waitForRequest(
    (request) => new URL(request.url()).pathname.endsWith('/calls/export') && request.method() === 'GET',
  );
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    panel.getByRole('button', { name: /^Download callboard-calls-.+\.csv$/ }).click(),
  ]);
  const request = await exported;
  expect(request.headers().authorization).toBe(`Bearer ${E2E_SUPERVISOR_TOKEN}`);
  expect(request.url()).not.toContain(E2E_SUPERVISOR_TOKEN);
  expect(new URL(request.url()).searchParams.get('queueID')).toBe('support');
  const lines = readFileSync(await download.path(), 'utf8')
    .replace(/^\uFEFF/, '')
    .trim()
    .split('\r\n')
    .filter((line) => !line.startsWith('#'));
  expect(lines[0]).toContain('callID');
  // Calls keep starting while the page counts and downloads: the file holds at least the counted ones.
  expect(lines.length - 1).toBeGreaterThanOrEqual(calls);
  await expect(panel.getByRole('status')).toContainText(/^Saved callboard-calls-.+\.csv/);
});

test('the reports pass axe in both themes, and fit a phone without sideways scrolling', async ({ page }) => {
  await page.setViewportSize({ width: 1920, height: 1080 });
  await openReports(page, 'period=7d&interval=60');
  await expect(page.getByRole('region', { name: 'Service level per interval' }).getByRole('table')).toBeVisible();
  await page.getByText('How these figures are counted').click();
  for (const scheme of ['light', 'dark'] as const) {
    await emulateSystemScheme(page, scheme);
    await expectNoSeriousA11yViolations(page);
    await page.screenshot({ path: `${SHOTS}/reports-${scheme}-1920.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole('region', { name: "Agents' time" }).getByRole('table')).toBeVisible();
  // The charts take the new width a frame or two after the resize (their containers are observed).
  await expect
    .poll(() => page.evaluate(() => (document.scrollingElement ?? document.documentElement).scrollWidth - window.innerWidth), {
      message: 'page wider than the phone',
    })
    .toBeLessThanOrEqual(0);
  await expectNoSeriousA11yViolations(page);
  await page.screenshot({ path: `${SHOTS}/reports-390.png`, fullPage: true });
});
