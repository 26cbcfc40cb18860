/** An agent's click-to-call: phone (tel:) links from any page, and a token that places calls only as its agent. */
import { expect, test, type Page } from '@playwright/test';
import { meResponseSchema } from '../src/contract/me.js';
import { paths } from '../src/contract/paths.js';
import { problemSchema } from '../src/contract/problem.js';
import { listSubscribersResponseSchema } from '../src/contract/subscriber.js';
import { formatPhoneNumber } from '../src/web/lib/format.js';
import { expectNoSeriousA11yViolations } from './support/axe.js';
import { E2E_AGENT_TOKEN, E2E_CONFIG, E2E_TOKEN, startService, type ServiceProcess } from './support/service-process.js';

const pbx = { accountID: 'e2e', applicationID: 'support', providerID: 'pbx-main' };
const SHOTS = 'test-results/screenshots';
/** A CRM's contact card: the number as such pages write it, percent-encoded spaces and all. */
const CRM_PAGE = '<main><h1>Ada Lovelace</h1><p>Phone: <a href="tel:+44%2020%207946%200958">+44 20 7946 0958</a></p></main>';

let service: ServiceProcess;
test.beforeAll(async () => {
  service = await startService({ CALLBOARD_CONFIG: E2E_CONFIG });
});
test.afterAll(async () => {
  await service?.stop();
});

const api = (token: string, path: string, init: RequestInit = {}) =>
  fetch(`${service.baseURL}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...init.headers },
  });

const subscribers = async () =>
  listSubscribersResponseSchema.parse(await (await api(E2E_TOKEN, paths.subscribers(pbx))).json()).subscribers;

/** Every make-call the page sends, to prove that landing in the form dials nothing. */
const recordCalls = (page: Page) => {
  const posts: unknown[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith(paths.makeCall(pbx))) posts.push(request.postDataJSON());
  });
  return posts;
};

test('the dashboard offers to open phone links and registers its /call address with the browser', async ({ page }) => {
  // Headless Chromium has no prompt to accept a handler: record what the page asks for, then let it through.
  await page.addInitScript(() => {
    const register = navigator.registerProtocolHandler.bind(navigator);
    navigator.registerProtocolHandler = (scheme: string, url: string) => {
      (window as unknown as { registered: string[] }).registered = [scheme, url];
      register(scheme, url);
    };
  });
  await page.goto(service.dashboardURL);
  // The page settled: the subscribers and the first calls are in, so nothing above the button moves it under the click.
  await expect(page.getByRole('region', { name: 'Place a call' }).getByText(/^\d+ subscribers$/)).toBeVisible();
  await expect(page.getByRole('table', { name: 'Live calls' }).getByRole('row').nth(1)).toBeVisible();
  const offer = page.getByRole('region', { name: 'Phone links' });
  await expect(offer).toContainText('Nothing is dialed until you press Place call');
  await offer.getByRole('button', { name: 'Open phone links here' }).click();
  await expect(offer).toContainText('Asked this browser to open phone links here');
  expect(await page.evaluate(() => (window as unknown as { registered: string[] }).registered)).toEqual([
    'tel',
    `${service.baseURL}/call?number=%s`,
  ]);
});

test('a tel: link clicked in a CRM lands in the click-to-call form, through sign-in, and dials only once confirmed', async ({
  page,
}) => {
  await page.setContent(CRM_PAGE);
  const href = await page.getByRole('link', { name: '+44 20 7946 0958' }).getAttribute('href');
  expect(href).toBe('tel:+44%2020%207946%200958');
  // Headless Chromium cannot register a handler (its permission prompt never shows), so the test
  // follows the link the way the browser would: the registered address, %s replaced by the escaped URI.
  const posts = recordCalls(page);
  await page.goto(`${service.baseURL}/call?number=${encodeURIComponent(href as string)}`);

  // No token yet: the number waits through the sign-in.
  await expect(page.getByRole('heading', { name: 'Connect to Callboard' })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Sign in to call' })).toContainText(
    `Sign in to call ${formatPhoneNumber('442079460958')}`,
  );
  await page.screenshot({ path: `${SHOTS}/phone-link-sign-in.png`, fullPage: true });
  await page.getByLabel('API token').fill(E2E_TOKEN);
  await page.getByRole('button', { name: 'Connect' }).click();

  const panel = page.getByRole('region', { name: 'Place a call' });
  const number = panel.getByRole('textbox', { name: 'Number to call' });
  await expect(number).toHaveValue(formatPhoneNumber('442079460958'));
  await expect(number).toBeVisible();
  await expect(panel.getByText('Will dial 442079460958')).toBeVisible();
  // No agent in a link: the caller's field has the focus, and nothing was sent.
  await expect(panel.getByLabel('Subscriber', { exact: true })).toBeFocused();
  await number.focus();
  await expect(number).toBeFocused();
  await page.waitForTimeout(1000);
  expect(posts).toEqual([]);

  const agent = (await subscribers()).find((s) => s.registered && s.active);
  if (!agent) throw new Error('the simulator should have a registered agent');
  await panel.getByLabel('Subscriber', { exact: true }).selectOption(agent.providerSubscriberID);
  await panel.getByRole('button', { name: 'Place call' }).click();
  await expect(panel).toContainText(/Ringing/);
  expect(posts).toEqual([{ providerSubscriberID: agent.providerSubscriberID, remoteNumber: '442079460958' }]);
});

test('a link with an extension says the extension is not dialed', async ({ page }) => {
  await page.goto(service.dashboardURL);
  await expect(page.getByRole('heading', { name: 'Live calls', exact: true })).toBeVisible();
  await page.goto(`${service.baseURL}/call?number=${encodeURIComponent('tel:+1-555-555-0123;ext=42')}`);
  const number = page.getByRole('region', { name: 'Place a call' }).getByRole('textbox', { name: 'Number to call' });
  await expect(number).toHaveValue('+1-555-555-0123;ext=42');
  await expect(number).toHaveAccessibleDescription(/Will dial 15555550123 Extension 42 is not dialed/);
});

test("an agent's token: the agent is preselected with no picker, and the API refuses calls as anyone else", async ({ page }) => {
  const me = meResponseSchema.parse(await (await api(E2E_AGENT_TOKEN, paths.me())).json());
  expect(me.subscriberIDs).toEqual(['agt-0001']);
  const agent = (await subscribers()).find((s) => s.providerSubscriberID === 'agt-0001');
  if (!agent) throw new Error('the simulator should list agt-0001');

  const posts = recordCalls(page);
  await page.goto(`${service.baseURL}/#token=${E2E_AGENT_TOKEN}`);
  const panel = page.getByRole('region', { name: 'Place a call' });
  const caller = panel.getByRole('group', { name: 'You place calls as' });
  await expect(caller).toContainText(`${agent.firstName} ${agent.lastName} · ext. ${agent.extension}`);
  await expect(panel.getByLabel('Subscriber', { exact: true })).toHaveCount(0);
  await expect(panel.getByRole('searchbox')).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);
  await page.screenshot({ path: `${SHOTS}/click-to-call-agent.png`, fullPage: true });

  // "Call back" on someone else's call: the agent calls back as themself.
  const table = page.getByRole('table', { name: 'Live calls' });
  const callBack = table.getByRole('button', { name: /^Call back \S/ }).first();
  await callBack.click();
  await expect(panel.getByRole('button', { name: 'Place call' })).toBeFocused();
  await expect(caller).toContainText(`${agent.firstName} ${agent.lastName}`);

  await panel.getByRole('textbox', { name: 'Number to call' }).fill('+1 (555) 010-0199');
  const answer = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith(paths.makeCall(pbx)));
  await panel.getByRole('button', { name: 'Place call' }).click();
  expect((await answer).status()).toBe(204);
  expect(posts).toEqual([{ providerSubscriberID: 'agt-0001', remoteNumber: '15550100199' }]);

  const other = (await subscribers()).find((s) => s.providerSubscriberID !== 'agt-0001');
  const refused = await api(E2E_AGENT_TOKEN, paths.makeCall(pbx), {
    method: 'POST',
    headers: { 'idempotency-key': 'e2e-agent-as-someone-else' },
    body: JSON.stringify({ providerSubscriberID: other?.providerSubscriberID, remoteNumber: '15550100199' }),
  });
  expect(refused.status).toBe(403);
  expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  const problem = problemSchema.parse(await refused.json());
  expect(problem.code).toBe('subscriber_not_allowed');
  expect(problem.errors?.map((e) => e.field)).toEqual(['providerSubscriberID']);
});
