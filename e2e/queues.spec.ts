/**
 * Queues in a real Chromium against the real service and its simulated PBX with three queues (and a
 * center with thirty): the Queues panel's figures are the service's, a queue's name scopes the whole
 * page to its calls and members and back, thirty queues do not crowd the page, and axe is clean in both themes.
 */
import { expect, test, type Page } from '@playwright/test';
import { paths } from '../src/contract/paths.js';
import { queuesResponseSchema } from '../src/contract/queues.js';
import { emulateSystemScheme, expectNoSeriousA11yViolations } from './support/axe.js';
import { E2E_SUPERVISOR_TOKEN, startService, type ServiceProcess } from './support/service-process.js';

const CONFIG = 'e2e/fixtures/queues-config.json';
const pbx = { accountID: 'e2e', applicationID: 'support', providerID: 'pbx-main' };
const SHOTS = 'test-results/screenshots';

let service: ServiceProcess;
test.beforeAll(async () => {
  service = await startService({ CALLBOARD_CONFIG: CONFIG });
});
test.afterAll(async () => {
  await service?.stop();
});

const queuesNow = async (providerID = pbx.providerID) => {
  const answer = await fetch(`${service.baseURL}${paths.queues({ ...pbx, providerID })}`, { headers: { authorization: `Bearer ${service.token}` } });
  expect(answer.status).toBe(200);
  return queuesResponseSchema.parse(await answer.json());
};

const open = async (page: Page, search = '', providerID = pbx.providerID) => {
  await page.goto(`${service.baseURL}/#token=${E2E_SUPERVISOR_TOKEN}`);
  await expect(page.getByRole('heading', { name: 'Live calls', exact: true })).toBeVisible();
  await page.goto(`${service.baseURL}/?provider=${providerID}${search ? `&${search}` : ''}`);
};

test("the Queues panel shows each queue's figures, and a queue's name scopes the page to its calls and members", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await open(page);
  const panel = page.getByRole('region', { name: 'Queues' });
  const table = panel.getByRole('table');
  await expect(table.getByRole('row')).toHaveCount(5);
  const answer = await queuesNow();
  for (const queue of answer.queues) {
    const row = table.getByRole('row').filter({ has: page.getByRole('button', { name: queue.name, exact: true }) });
    await expect(row).toContainText(`target ${Math.round(queue.serviceLevelTarget * 100)}\u00a0%`);
    await expect(row).toContainText(`within ${queue.answerWithinSeconds} s`);
  }
  const sales = answer.queues.find((queue) => queue.queueID === 'sales');
  await table.getByRole('button', { name: 'Sales', exact: true }).click();
  await expect(page).toHaveURL(/[?&]queue=sales(&|$)/);
  await expect(table.getByRole('button', { name: '✓ Sales' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('status').filter({ hasText: 'Showing only' })).toContainText('Showing only Sales');
  // The board shows the queue's members only, the tiles its own answer time.
  await expect(page.getByText(`of ${sales?.members.length} agents`)).toBeVisible();
  await expect(page.getByRole('group', { name: 'Service level' })).toContainText(/Within 10\u00a0s in 15\u00a0min/);
  await page.screenshot({ path: `${SHOTS}/queues-sales-1280.png`, fullPage: true });

  await page.getByRole('button', { name: 'Show every queue' }).click();
  await expect(page).not.toHaveURL(/queue=/);
  await expect(page.getByText(/of 24 agents/)).toBeVisible();
});

test('thirty queues stay in a panel of bounded height that scrolls, on a desktop and a phone', async ({ page }) => {
  for (const [width, height] of [
    [1280, 720],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await open(page, '', 'big');
    const panel = page.getByRole('region', { name: 'Queues' });
    const buttons = panel.getByRole('button', { name: /^Spain$/ });
    await expect(buttons).toHaveCount(1);
    const box = await panel.boundingBox();
    expect(box?.height, `${width}x${height}: the panel's height`).toBeLessThan(520);
    // The last queue is reached by scrolling the panel, not the page past thirty rows.
    await buttons.scrollIntoViewIfNeeded();
    await expect(buttons).toBeInViewport();
    await page.screenshot({ path: `${SHOTS}/queues-thirty-${width}.png` });
  }
});

test('the live view with its queues passes axe in both themes', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await open(page, 'queue=support');
  await expect(page.getByRole('region', { name: 'Queues' }).getByRole('table').getByRole('row')).toHaveCount(5);
  for (const scheme of ['light', 'dark'] as const) {
    await emulateSystemScheme(page, scheme);
    await expectNoSeriousA11yViolations(page);
    await page.screenshot({ path: `${SHOTS}/queues-${scheme}-1280.png` });
  }
});

test("the wallboard's queue rows fit every screen from 720p to 4K, for one queue and for twelve, in both themes", async ({ page }) => {
  test.setTimeout(120_000);
  const twelve = Array.from({ length: 12 }, (_, i) => `q${String(i + 1).padStart(2, '0')}`).join(',');
  for (const [count, queue] of [
    [1, 'q01'],
    [12, twelve],
  ] as const) {
    for (const [width, height] of [
      [1280, 720],
      [1920, 1080],
      [3840, 2160],
    ] as const) {
      await page.setViewportSize({ width, height });
      await page.goto(`${service.baseURL}/#token=${E2E_SUPERVISOR_TOKEN}`);
      await expect(page.getByRole('heading', { name: 'Live calls', exact: true })).toBeVisible();
      await page.goto(`${service.baseURL}/wallboard?provider=big&queues=1&queue=${queue}`);
      const cards = page.getByRole('list', { name: 'Queues' }).getByRole('listitem');
      await expect(cards).toHaveCount(count);
      const fit = await page.evaluate(() => {
        const root = document.scrollingElement ?? document.documentElement;
        const clipped = [...document.querySelectorAll('ul[aria-label="Queues"] > li')].filter(
          (card) => card.scrollHeight > card.clientHeight + 1 || card.scrollWidth > card.clientWidth + 1,
        ).length;
        return { scrollHeight: root.scrollHeight, scrollWidth: root.scrollWidth, height: window.innerHeight, width: window.innerWidth, clipped };
      });
      expect(fit.scrollHeight, `${count} at ${width}x${height}: height`).toBeLessThanOrEqual(fit.height);
      expect(fit.scrollWidth, `${count} at ${width}x${height}: width`).toBeLessThanOrEqual(fit.width);
      expect(fit.clipped, `${count} at ${width}x${height}: cards whose figures do not fit`).toBe(0);
      if (width === 1920) await page.screenshot({ path: `${SHOTS}/wall-queues-${count}-1080.png` });
    }
  }
  for (const scheme of ['light', 'dark'] as const) {
    await page.setViewportSize({ width: 1920, height: 1080 });
    await page.goto(`${service.baseURL}/wallboard?provider=big&queues=1&queue=${twelve}&theme=${scheme}`);
    await expect(page.getByRole('list', { name: 'Queues' }).getByRole('listitem')).toHaveCount(12);
    await expectNoSeriousA11yViolations(page);
  }
});

test('analytics draws service level per queue, each with its target, and lists every queue in a table', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto(`${service.baseURL}/#token=${E2E_SUPERVISOR_TOKEN}`);
  await expect(page.getByRole('heading', { name: 'Live calls', exact: true })).toBeVisible();
  await page.goto(`${service.baseURL}/analytics?provider=pbx-main&range=24h`);
  const panel = page.getByRole('region', { name: 'Service level per queue' });
  await expect(panel.getByRole('table')).toBeVisible({ timeout: 15_000 });
  for (const name of ['Support', 'Billing', 'Sales']) await expect(panel.getByRole('table').getByRole('rowheader', { name, exact: true })).toBeVisible();
  await expect(panel.getByRole('list', { name: 'Legend' })).toContainText('Sales (target 90 %, dashed)');
  await panel.scrollIntoViewIfNeeded();
  await expect(panel.locator('.recharts-line')).toHaveCount(3);
  await expectNoSeriousA11yViolations(page);
  await panel.screenshot({ path: `${SHOTS}/analytics-queues-1280.png` });
});
