/** The analytics page against the real service: a week of backfilled history, in a real Chromium. */
import { readFileSync } from 'node:fs';
import { expect, test, type Locator } from '@playwright/test';
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
  // The week fills in the background after start: seconds on an idle machine, longer on a busy one.
  test.setTimeout(150_000);
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
  const chart = page.getByRole('figure', { name: /Chart of concurrent calls over the range\. Peak \d+ live calls/ });
  await expect(chart).toBeVisible();
  // The past fills in the background after the service starts; while it does, the page says so and follows it.
  await expect(page.getByText(/History is still filling/)).toHaveCount(0, { timeout: 60_000 });

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

/** The time labels under a chart, as drawn (recharts draws every axis's labels in one layer, apart from the axis). */
const xTickLabels = (chart: Locator) => chart.locator('text.recharts-cartesian-axis-tick-value[orientation="bottom"]').allTextContents();

test('time axes sit on round hours and midnights of the displayed zone, for every range and zone', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(service.dashboardURL);
  await expect(page.getByRole('table', { name: 'Live calls' })).toBeVisible();
  const chart = page.getByRole('figure', { name: /^Chart of concurrent calls over the range/ });
  const missed = page.getByRole('figure', { name: /^Chart of calls started and missed/ });
  const HOUR = /^([01]\d|2[0-3]):00$/;
  const DAY = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d{1,2}$/;

  for (const zone of ['UTC', 'Asia/Kolkata', 'America/New_York']) {
    await page.goto(`${service.baseURL}/analytics?provider=sip-trunk&range=24h&tz=${encodeURIComponent(zone)}`);
    await expect.poll(() => xTickLabels(chart), { message: `${zone} 24 h` }).not.toEqual([]);
    const day = await xTickLabels(chart);
    expect(day.length, `${zone} 24 h: ${day.join(', ')}`).toBeGreaterThanOrEqual(6);
    for (const label of day) expect(label, `${zone} 24 h: ${day.join(', ')}`).toMatch(new RegExp(`${HOUR.source}|${DAY.source}`));
    // Evenly spaced: every gap between two hour labels is the same number of hours.
    const hours = day.filter((label) => HOUR.test(label)).map((label) => Number(label.slice(0, 2)));
    const gaps = new Set(hours.slice(1).map((hour, i) => (hour - (hours[i] as number) + 24) % 24));
    expect(gaps.size, `${zone} 24 h: ${day.join(', ')}`).toBeLessThanOrEqual(2);
    expect(await xTickLabels(missed)).toEqual(day);

    // Each range's labels, once the axis has redrawn for it: all of one kind, and enough of them.
    // The 24 h labels also match the 7 d pattern, so each range waits for what only its own axis draws.
    const settles = (range: string, pattern: RegExp, drawn: (labels: string[]) => boolean) =>
      expect
        .poll(async () => {
          const labels = await xTickLabels(chart);
          return drawn(labels) && labels.every((label) => pattern.test(label)) ? 'round' : labels.join(', ');
        }, { message: `${zone} ${range}`, timeout: 15_000 })
        .toBe('round');
    await page.getByRole('button', { name: '7 d' }).click();
    await expect(page).toHaveURL(/[?&]range=7d/);
    // A label at each midnight.
    await settles('7 d', new RegExp(`${HOUR.source}|${DAY.source}`), (labels) => labels.filter((label) => DAY.test(label)).length >= 6);
    await page.getByRole('button', { name: '1 h' }).click();
    await expect(page).toHaveURL(/[?&]range=1h/);
    await settles('1 h', /^([01]\d|2[0-3]):[0-5][05]$|^(Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d{1,2}$/, (labels) => labels.length >= 4);
  }
});

test('the busiest-hours heatmap shows all 24 hours on desk screens, and says it scrolls on a phone', async ({ page }) => {
  await page.goto(service.dashboardURL);
  await expect(page.getByRole('table', { name: 'Live calls' })).toBeVisible();
  const heatmap = page.getByRole('table', { name: /Calls started per hour, last 7 days/ });
  const hint = page.getByText('Scroll sideways for all 24 hours');
  for (const width of [1280, 1440, 1920]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`${service.baseURL}/analytics?range=7d`);
    await expect(heatmap).toBeVisible();
    const panel = page.getByRole('region', { name: 'Busiest hours of the week' });
    const room = await panel.boundingBox();
    for (const hour of ['00', '12', '22', '23']) {
      const box = await heatmap.getByRole('columnheader', { name: hour, exact: true }).boundingBox();
      expect(box && room && box.x >= room.x && box.x + box.width <= room.x + room.width, `${width}px: hour ${hour} inside the panel`).toBe(true);
    }
    await expect(hint).toHaveCount(0);
  }

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${service.baseURL}/analytics?range=7d`);
  await expect(hint).toBeVisible();
  const scroller = page.getByRole('region', { name: /Calls started per hour, last 7 days/ });
  await scroller.scrollIntoViewIfNeeded();
  await scroller.hover();
  await page.mouse.wheel(2000, 0);
  const last = heatmap.getByRole('columnheader', { name: '23', exact: true });
  await expect(last).toBeInViewport();
  await expect(heatmap.getByRole('rowheader', { name: 'Mon' })).toBeInViewport();
  await page.screenshot({ path: `${SHOTS}/analytics-phone.png`, fullPage: true });
});
