/** Signing in: the one-click link, a refused token, the connection page, signing out. */
import { expect, test, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './support/axe.js';
import { E2E_CONFIG, startService, type ServiceProcess } from './support/service-process.js';

let service: ServiceProcess;
test.beforeAll(async () => {
  service = await startService({ CALLBOARD_CONFIG: E2E_CONFIG });
});
test.afterAll(async () => {
  await service?.stop();
});

test('the one-click link signs in, removes the token from the address bar and shows live calls', async ({ page }) => {
  await page.goto(service.dashboardURL);
  await expect(page.getByRole('heading', { name: 'Live calls', exact: true })).toBeVisible();
  expect(page.url()).not.toContain('token');
  await expect(page).toHaveTitle(/^\(\d+\) Live calls/);
  const stored = await page.evaluate(() => ({ session: sessionStorage.getItem('callboard.connection'), local: localStorage.getItem('callboard.connection') }));
  expect(stored.session).toContain(service.token);
  expect(stored.local).toBeNull();
});

test('a bad token lands on the connection page with its message', async ({ page }) => {
  await page.goto(`${service.baseURL}/#token=not-the-right-token-000`);
  await expect(page.getByRole('heading', { name: 'Connect to Callboard' })).toBeVisible();
  await expect(page.getByText(/refused the token/)).toBeVisible();
  expect(page.url()).not.toContain('not-the-right-token');
  await expectNoSeriousA11yViolations(page);
});

test('the connection page checks the token and explains a refusal and an unreachable service', async ({ page }) => {
  await page.goto(`${service.baseURL}/connect`);
  await page.getByLabel('API token').fill('wrong-token-but-long-enough');
  await page.getByRole('button', { name: 'Connect' }).click();
  await expect(page.getByRole('alert')).toContainText('refused this token');

  await page.getByLabel('Service address').fill('http://127.0.0.1:9');
  await page.getByLabel('API token').fill(service.token);
  await page.getByRole('button', { name: 'Connect' }).click();
  await expect(page.getByRole('alert')).toContainText('Cannot reach http://127.0.0.1:9');

  await page.getByLabel('Service address').fill('');
  await page.getByRole('button', { name: 'Connect' }).click();
  await expect(page.getByRole('heading', { name: 'Live calls', exact: true })).toBeVisible();

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { name: 'Connect to Callboard' })).toBeVisible();
  expect(await page.evaluate(() => sessionStorage.getItem('callboard.connection'))).toBeNull();
});

/** The page's background as painted: the dark theme's surface is rgb(11, 15, 20). */
const DARK_SURFACE = 'rgb(11, 15, 20)';
const LIGHT_SURFACE = 'rgb(246, 247, 249)';
const background = (page: Page) => page.evaluate(() => (document.body ? getComputedStyle(document.body).backgroundColor : 'no body yet'));

test('a wall screen without a token is dark from the first paint, on the connection page too', async ({ browser }) => {
  const context = await browser.newContext({ colorScheme: 'light' });
  const page = await context.newPage();
  // Hold the app's code back: what shows meanwhile is what index.html and the stylesheet paint.
  let release = () => undefined as void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/assets/*.js', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(`${service.baseURL}/wallboard`, { waitUntil: 'commit' });
  // Once the stylesheet applies, before any of the app's code has run.
  await expect.poll(() => background(page)).toMatch(/^rgb\(/);
  expect(await background(page)).toBe(DARK_SURFACE);
  await expect(page.locator('#root')).toBeEmpty();

  release();
  await expect(page.getByRole('heading', { name: 'Connect to Callboard' })).toBeVisible();
  await expect(page).toHaveURL(/\/connect\?theme=dark$/);
  expect(await background(page)).toBe(DARK_SURFACE);
  await expectNoSeriousA11yViolations(page);
  await context.close();
});

test('the connection page follows ?theme= over the system\'s', async ({ browser }) => {
  for (const [system, asked, painted] of [
    ['light', 'dark', DARK_SURFACE],
    ['dark', 'light', LIGHT_SURFACE],
  ] as const) {
    const context = await browser.newContext({ colorScheme: system });
    const page = await context.newPage();
    await page.goto(`${service.baseURL}/connect?theme=${asked}`);
    await expect(page.getByRole('heading', { name: 'Connect to Callboard' })).toBeVisible();
    expect(await background(page), `${asked} on a ${system} system`).toBe(painted);
    await context.close();
  }
});
