/** The live view on the change stream: calls pushed as they happen, polling when the stream is refused, charts filled at once. */
import { expect, test, type Page } from '@playwright/test';
import { concurrencyResponseSchema } from '../src/contract/analytics.js';
import { paths } from '../src/contract/paths.js';
import { listSubscribersResponseSchema } from '../src/contract/subscriber.js';
import { E2E_CONFIG, E2E_TOKEN, startService, type ServiceProcess } from './support/service-process.js';

const trunk = { accountID: 'e2e', applicationID: 'support', providerID: 'sip-trunk' };
const SHOTS = 'test-results/screenshots';

let service: ServiceProcess;
test.beforeAll(async () => {
  service = await startService({ CALLBOARD_CONFIG: E2E_CONFIG });
});
test.afterAll(async () => {
  await service?.stop();
});

const api = (path: string, init: RequestInit = {}) =>
  fetch(`${service.baseURL}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${E2E_TOKEN}`, 'content-type': 'application/json', ...init.headers },
  });

/** Requests for the live list itself (not its windowed reads): what polling sends, and streaming does not. */
const countListPolls = (page: Page) => {
  const polls = { count: 0 };
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname === paths.listCalls(trunk) && url.search === '') polls.count += 1;
  });
  return polls;
};

const openTrunk = async (page: Page) => {
  await page.goto(service.dashboardURL);
  await expect(page.getByRole('table', { name: 'Live calls' })).toBeVisible();
  await page.goto(`${service.baseURL}/?provider=sip-trunk`);
  await expect(page.getByRole('table', { name: 'Live calls' })).toBeVisible();
};

const freshness = (page: Page) => page.locator('[data-freshness]');

test('a call placed elsewhere appears through the stream, and the list is never polled', async ({ page }) => {
  await openTrunk(page);
  await expect(freshness(page)).toContainText('pushed');
  const polls = countListPolls(page);

  const { subscribers } = listSubscribersResponseSchema.parse(await (await api(paths.subscribers(trunk))).json());
  const remoteNumber = `1555${String(Date.now()).slice(-7)}`;
  // The simulator's own traffic may keep a subscriber busy (409): the next one places the call.
  let placed: Response | undefined;
  for (const subscriber of subscribers) {
    placed = await api(paths.makeCall(trunk), {
      method: 'POST',
      headers: { 'idempotency-key': crypto.randomUUID() },
      body: JSON.stringify({ providerSubscriberID: subscriber.providerSubscriberID, remoteNumber }),
    });
    if (placed.status !== 409) break;
  }
  expect(placed?.status).toBe(204);
  const shown = `+1 (555) ${remoteNumber.slice(4, 7)}-${remoteNumber.slice(7)}`;
  await expect(page.getByRole('table', { name: 'Live calls' }).getByText(shown)).toBeVisible({ timeout: 5_000 });
  expect(polls.count, 'list polls while streaming').toBe(0);
  await expect(freshness(page)).toContainText(/Live · updated \d+ s ago/);
});

test('where the stream is refused, the dashboard polls and says so, then streams again by itself', async ({ page }) => {
  test.setTimeout(90_000);
  // A proxy that does not pass the stream on.
  await page.route('**/calls/stream?**', (route) =>
    route.fulfill({ status: 502, contentType: 'text/html', body: '<html><body>Bad gateway</body></html>' }),
  );
  await openTrunk(page);
  const polls = countListPolls(page);
  await expect(freshness(page)).toContainText('polling every 2 s', { timeout: 30_000 });
  await expect.poll(() => polls.count, { message: 'the list is polled instead', timeout: 15_000 }).toBeGreaterThanOrEqual(2);
  await expect(page.getByText(/Not live/)).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/live-polling-fallback.png` });

  await page.unroute('**/calls/stream?**');
  await expect(freshness(page)).toContainText('pushed', { timeout: 45_000 });
  const after = polls.count;
  await page.waitForTimeout(5_000);
  expect(polls.count, 'no polling once streaming again').toBe(after);
});

/** The chart's minute table: "HH:MM total in out" per row. */
const minuteRows = async (page: Page) => {
  const table = page.getByRole('table', { name: /Busiest moment of each minute, last 15 minutes/ });
  if (!(await table.isVisible())) await page.getByRole('button', { name: 'Show data table' }).click();
  return (await table.getByRole('row').allTextContents()).slice(1);
};

/** Whether a minute row ("HH:MM ...", on the page's clock) is earlier than the minute of `at`, across midnight too. */
const isBefore = (row: string, at: number, timeZone: string): boolean => {
  const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
  const atText = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(at);
  const minutesEarlier = (minutes(atText) - minutes(row) + 24 * 60) % (24 * 60);
  return minutesEarlier > 0 && minutesEarlier < 12 * 60;
};

test('a page opened on a new screen shows the last hour at once, and a reload shows the same picture', async ({ browser }) => {
  test.setTimeout(120_000);
  // The service started moments ago: its journal holds the last hour once the past is filled in.
  await expect
    .poll(
      async () => {
        const answer = await api(`${paths.concurrency(trunk)}?fromDate=${new Date(Date.now() - 3_600_000).toISOString()}`);
        return concurrencyResponseSchema.parse(await answer.json()).historyFill?.status ?? 'complete';
      },
      { timeout: 90_000, intervals: [1_000, 2_000, 5_000] },
    )
    .not.toBe('filling');

  const context = await browser.newContext();
  const page = await context.newPage();
  // Minutes the journal had whole when the page opened: before the one it opened in, and before the
  // one a poll of the provider may still have been adding to.
  const settled = Date.now() - 60_000;
  await openTrunk(page);
  const timeZone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
  // The table's window moves on every minute and its oldest row leaves: the rows compared are the ten
  // settled minutes no move during the test can take away, whenever in its minute the test runs.
  const settledRows = async () =>
    (await minuteRows(page)).filter((row) => isBefore(row, settled, timeZone) && !isBefore(row, settled - 10 * 60_000, timeZone));
  // The journal's answer comes after the first calls: wait until its minutes are drawn.
  await expect.poll(async () => (await settledRows()).length, { timeout: 15_000 }).toBeGreaterThanOrEqual(10);
  const before = await settledRows();
  await page.screenshot({ path: `${SHOTS}/live-chart-seeded.png` });

  // Another screen, nothing stored: the same minutes, from the journal.
  await page.evaluate(() => localStorage.clear());
  await page.reload();
  await expect(page.getByRole('table', { name: 'Live calls' })).toBeVisible();
  await expect.poll(settledRows).toEqual(before);
  await expect(page.getByRole('group', { name: /Peak today/ })).not.toContainText('since');
  await context.close();
});
