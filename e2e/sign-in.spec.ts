/**
 * Signing in with the company's identity provider in a real Chromium, as `npm run demo:sso` runs
 * it: the built service over the simulator and a real OpenID provider on this machine
 * (oidc-provider). Each role signs in through the provider's own pages and lands where their work
 * is; someone without a role is told so; signing out goes through the provider and back; a wall
 * screen whose session ends elsewhere returns to sign-in saying so. axe scans the new pages.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { authPaths, sessionResponseSchema } from '../src/contract/session.js';
import { freePort } from '../src/testbed/free-ports.js';
import { expectNoSeriousA11yViolations } from './support/axe.js';

const SHOTS = 'test-results/screenshots';

interface Demo {
  url: string;
  output: () => string;
  stop: () => Promise<void>;
}

/** `npm run demo:sso` without its install and build (the test command built already). */
const startDemo = async (): Promise<Demo> => {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/testbed/sso/sso-demo.ts', '--port', String(await freePort())], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the demo did not start within 60 s:\n${output}`)), 60_000);
    child.stdout?.on('data', () => {
      const found = /Dashboard:\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (found && output.includes('Ctrl-C')) {
        clearTimeout(timer);
        resolve(found[1] as string);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the demo exited with ${code}:\n${output}`));
    });
  });
  return {
    url,
    output: () => output,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
};

let demo: Demo;
test.beforeAll(async () => {
  demo = await startDemo();
});
test.afterAll(async () => {
  await demo?.stop();
});

/** Signs `login` in from the dashboard's sign-in page, through the identity provider's own form. */
const signIn = async (page: Page, login: string, path = '/') => {
  await page.goto(`${demo.url}${path}`);
  await expect(page.getByRole('heading', { name: 'Sign in to Callboard' })).toBeVisible();
  await page.getByRole('link', { name: 'Sign in with Demo Co. (test identity provider)' }).click();
  await page.getByPlaceholder('Enter any login').fill(login);
  await page.getByPlaceholder('and password').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
};

const newPage = async (browser: Browser, viewport = { width: 1280, height: 720 }) => (await browser.newContext({ viewport })).newPage();

test('each role signs in through the identity provider and lands where their work is', async ({ browser }) => {
  const landings = [
    { login: 'supervisor', path: '/', heading: 'Live calls', name: 'Sam Okafor', role: /supervisor/i },
    { login: 'agent', path: '/desk', heading: 'My desk', name: /./, role: /agent/i },
    { login: 'analyst', path: '/reports', heading: 'Reports', name: 'Ana Ruiz', role: /analyst/i },
    { login: 'admin', path: '/', heading: 'Live calls', name: 'Alex Admin', role: /admin/i },
  ];
  for (const landing of landings) {
    const page = await newPage(browser);
    await signIn(page, landing.login);
    await expect(page, landing.login).toHaveURL(new RegExp(`^${demo.url}${landing.path === '/' ? '/(\\?.*)?$' : landing.path}`));
    await expect(page.getByRole('heading', { name: landing.heading, level: 1, exact: true })).toBeVisible();
    const banner = page.getByRole('banner');
    await expect(banner.getByText(landing.name).first()).toBeVisible();
    await expect(banner.getByText(landing.role).first()).toBeVisible();
    await expect(banner.getByRole('button', { name: 'Sign out' })).toBeVisible();
    // Nothing of the session is readable by the page (the cookie is httpOnly), and neither the session nor its CSRF token is stored.
    const cookie = (await page.context().cookies()).find((c) => c.name === 'callboard-session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    const answer = sessionResponseSchema.parse(await (await page.request.get(`${demo.url}${authPaths.session()}`)).json());
    if (!answer.signedIn) throw new Error(`${landing.login} is not signed in`);
    const stored = await page.evaluate(() => ({
      cookie: document.cookie,
      values: [...Object.values(localStorage), ...Object.values(sessionStorage)].join('\n'),
    }));
    expect(stored.cookie).toBe('');
    expect(stored.values).not.toContain(cookie?.value);
    expect(stored.values).not.toContain(answer.csrfToken);
    if (landing.login === 'agent') {
      await page.screenshot({ path: `${SHOTS}/sign-in-my-desk-1280.png` });
      await expectNoSeriousA11yViolations(page);
    }
    await page.context().close();
  }
});

test('a person with no Callboard role is told so on the sign-in page', async ({ browser }) => {
  const page = await newPage(browser);
  await signIn(page, 'nobody');
  await expect(page).toHaveURL(/\/sign-in\?problem=no_role/);
  await expect(page.getByRole('heading', { name: 'Sign in to Callboard' })).toBeVisible();
  await expect(page.getByText(/no Callboard role/i).first()).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/sign-in-no-role-1280.png` });
  await expectNoSeriousA11yViolations(page);
  await page.context().close();
});

test('signing out ends the session here and at the identity provider, then says so', async ({ browser }) => {
  const page = await newPage(browser);
  await signIn(page, 'supervisor', '/reports');
  await expect(page).toHaveURL(`${demo.url}/reports`);
  await page.getByRole('banner').getByRole('button', { name: 'Sign out' }).click();
  // oidc-provider asks before it ends its own session.
  await page.getByRole('button', { name: /yes, sign me out/i }).click();
  await expect(page).toHaveURL(/\/sign-in\?signedOut=1/);
  await expect(page.getByText('You signed out')).toBeVisible();
  const session = sessionResponseSchema.parse(await (await page.request.get(`${demo.url}${authPaths.session()}`)).json());
  expect(session.signedIn).toBe(false);
  await page.context().close();
});

test('a wall screen whose session ends elsewhere returns to sign-in, dark, saying so', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 1920, height: 1080 } });
  const wall = await context.newPage();
  await signIn(wall, 'supervisor', '/wallboard?theme=dark');
  await expect(wall).toHaveURL(`${demo.url}/wallboard?theme=dark`);
  await expect(wall.getByRole('heading', { level: 1 }).first()).toBeVisible();
  // Signed out in another tab of the same browser: the wall screen's next request is refused.
  const answer = sessionResponseSchema.parse(await (await context.request.get(`${demo.url}${authPaths.session()}`)).json());
  if (!answer.signedIn) throw new Error('the wall screen is not signed in');
  const out = await context.request.post(`${demo.url}${authPaths.signOut()}`, { headers: { origin: demo.url, 'x-csrf-token': answer.csrfToken } });
  expect(out.status()).toBe(200);
  await expect(wall.getByText('Your session ended; sign in again.')).toBeVisible({ timeout: 15_000 });
  await expect(wall.getByRole('heading', { name: 'Sign in to Callboard' })).toBeVisible();
  expect(await wall.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
  await wall.screenshot({ path: `${SHOTS}/sign-in-session-ended-wall-1920.png` });
  await context.close();
});

test('the sign-in page and My desk fit a phone', async ({ browser }) => {
  const page = await newPage(browser, { width: 390, height: 844 });
  await page.goto(demo.url);
  await expect(page.getByRole('heading', { name: 'Sign in to Callboard' })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/sign-in-phone.png` });
  await expectNoSeriousA11yViolations(page);
  await signIn(page, 'agent');
  await expect(page.getByRole('heading', { name: 'My desk', level: 1 })).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await page.screenshot({ path: `${SHOTS}/sign-in-my-desk-phone.png`, fullPage: true });
  await page.context().close();
});
