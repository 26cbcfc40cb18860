/**
 * The dashboard through the balancer of a cluster (three built instances on a PostgreSQL of their
 * own, HAProxy in front): it stays live, with no error shown, while the leader is killed and
 * while every instance is restarted one after another.
 */
import { expect, test, type Page } from '@playwright/test';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../scripts/throwaway-postgres.mjs';
import { Cluster } from '../src/testbed/cluster.js';

let postgres: ThrowawayPostgres;
let cluster: Cluster;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  postgres = await startThrowawayPostgres({ database: 'callboard_e2e_cluster' });
  cluster = await Cluster.start({ databaseURL: postgres.url, entry: 'built', staleAfterMs: 8000 });
});

test.afterAll(async () => {
  test.setTimeout(60_000);
  await cluster?.stop();
  postgres?.stop();
});

/** Samples what the page shows every 250 ms while `during` runs: how fresh it says its data is, and any alert. */
const watchPage = async (page: Page, during: () => Promise<void>) => {
  const seen: string[] = [];
  let running = true;
  const sampling = (async () => {
    while (running) {
      const freshness = await page.locator('[data-freshness]').first().getAttribute('data-freshness');
      const alerts = await page.getByRole('alert').allTextContents();
      seen.push([freshness, ...alerts].join(' | '));
      await page.waitForTimeout(250);
    }
  })();
  try {
    await during();
  } finally {
    running = false;
    await sampling;
  }
  return seen;
};

test('stays live through the balancer while the leader is killed and every instance restarts', async ({ page }) => {
  test.setTimeout(180_000);
  await page.goto(cluster.dashboardURL);
  await expect(page.getByRole('table', { name: 'Live calls' })).toBeVisible();
  await expect(page.locator('[data-freshness="live"]')).toBeVisible({ timeout: 15_000 });
  await expect(page.locator('[data-delivery="streaming"]')).toBeVisible({ timeout: 15_000 });

  const killed = await watchPage(page, async () => {
    const victim = await cluster.leaderOf('pbx-main');
    cluster.kill(victim);
    await page.waitForTimeout(10_000);
    await cluster.startInstance(victim);
  });
  expect(killed.filter((sample) => sample !== 'live')).toEqual([]);

  const rolled = await watchPage(page, async () => {
    for (const instance of cluster.instances) {
      await cluster.stopInstance(instance);
      await cluster.startInstance(instance);
    }
    await page.waitForTimeout(2000);
  });
  expect(rolled.filter((sample) => sample !== 'live')).toEqual([]);
  // Still pushed: the stream came back on the instances that stayed.
  await expect(page.locator('[data-delivery="streaming"]')).toBeVisible({ timeout: 15_000 });
});
