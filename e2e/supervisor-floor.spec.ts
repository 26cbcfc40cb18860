/**
 * The supervisor's floor in a real Chromium against the real service and its simulator: the agent
 * board following an agent through a call, an alert tripping and being acknowledged, a supervisor
 * ending a call, the wallboard with the board on every screen size, and axe in both themes.
 */
import { expect, test, type Page } from '@playwright/test';
import { listAgentsResponseSchema, type ListAgentsResponse } from '../src/contract/agents.js';
import { listCallsResponseSchema } from '../src/contract/call-record.js';
import { paths } from '../src/contract/paths.js';
import { emulateSystemScheme, expectNoSeriousA11yViolations } from './support/axe.js';
import { pageFit } from './support/layout.js';
import { E2E_SUPERVISOR_TOKEN, startService, type ServiceProcess } from './support/service-process.js';

/** The e2e config and a quiet desk beside its busy PBX. */
const FLOOR_CONFIG = 'e2e/fixtures/floor-config.json';

/** Busy: calls all the time, for the alerts and the wall. */
const pbx = { accountID: 'e2e', applicationID: 'support', providerID: 'pbx-main' };
/** Quiet: its agents are free, for following one through a call of the test's own. */
const desk = { ...pbx, providerID: 'desk' };
const SHOTS = 'test-results/screenshots';
/** Service level and the longest wait never alert with these: the tests choose which alert trips. */
const QUIET_SERVICE_LEVEL = 'slwarn=1&slcrit=0&waitwarn=3600&waitcrit=7200';

let service: ServiceProcess;
test.beforeAll(async () => {
  service = await startService({ CALLBOARD_CONFIG: FLOOR_CONFIG });
});
test.afterAll(async () => {
  await service?.stop();
});

const api = (path: string, init: RequestInit = {}, token = service.token) =>
  fetch(`${service.baseURL}${path}`, { ...init, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...init.headers } });
const listCalls = async () => listCallsResponseSchema.parse(await (await api(paths.listCalls(desk))).json()).calls;

/** Signs in as the supervisor, then opens `path` on one provider. */
const open = async (page: Page, path: string, search = '', providerID = pbx.providerID) => {
  await page.goto(`${service.baseURL}/#token=${E2E_SUPERVISOR_TOKEN}`);
  await expect(page.getByRole('heading', { name: 'Live calls', exact: true })).toBeVisible();
  await page.goto(`${service.baseURL}${path}?provider=${providerID}${search ? `&${search}` : ''}`);
};

/** Places a call on the desk as `subscriberID`, whose course the simulator follows as scripted (simulated ms; it runs 20x fast). */
const placeScripted = async (subscriberID: string, script: object) => {
  expect((await api(paths.simulatorNextPlacedCall(desk), { method: 'PUT', body: JSON.stringify(script) })).status).toBe(204);
  const placed = await api(paths.makeCall(desk), { method: 'POST', body: JSON.stringify({ providerSubscriberID: subscriberID, remoteNumber: '14155550123' }) });
  expect(placed.status).toBe(204);
};

/** An agent of the desk who is free now (the board answers once the desk has listed its subscribers). */
const idleAgent = async () => {
  let found: ListAgentsResponse['agents'][number] | undefined;
  await expect
    .poll(
      async () => {
        const answer = await api(paths.agents(desk));
        if (answer.status !== 200) return undefined;
        found = listAgentsResponseSchema.parse(await answer.json()).agents.find((agent) => agent.state === 'available' && agent.subscriberID !== 'agt-0000');
        return found?.subscriberID;
      },
      { timeout: 20_000, message: 'the desk should have an available agent' },
    )
    .toBeDefined();
  return found as ListAgentsResponse['agents'][number];
};

test('the board follows an agent: ringing, on a call with the number, then available again', async ({ page }) => {
  await open(page, '/', QUIET_SERVICE_LEVEL, desk.providerID);
  const agent = await idleAgent();
  // Their phone rings 3 s, the number answers 2 s later, they talk 10 s (at 20x).
  await placeScripted(agent.subscriberID, { agent: 'answer', agentRingMs: 60_000, remote: 'answer', remoteRingMs: 40_000, talkMs: 200_000 });
  await page.getByLabel('Find an agent').fill(agent.extension);
  const tile = page.getByRole('list', { name: 'Agents' }).getByRole('button');
  await expect(tile).toHaveCount(1);
  await expect(tile).toContainText('Ringing', { timeout: 10_000 });
  await expect(tile).toContainText('On a call', { timeout: 15_000 });
  await expect(tile).toContainText('(415) 555-0123');
  await page.screenshot({ path: `${SHOTS}/board-on-call.png` });
  await expect(tile).toContainText('Available', { timeout: 30_000 });

  // Choosing the agent shows their calls in the table.
  await tile.click();
  await expect(page.getByRole('table', { name: 'Live calls' }).getByRole('row').nth(1)).toContainText(agent.firstName);
});

/** Where the live view's figures begin, in the page: they must not move as alerts trip and clear. */
const figuresTop = (page: Page) =>
  page.getByRole('region', { name: 'Call statistics' }).evaluate((figures) => figures.getBoundingClientRect().top + window.scrollY);

test('an alert on live calls trips, shows in the banner and the title, and is quiet once acknowledged', async ({ page }) => {
  await open(page, '/', QUIET_SERVICE_LEVEL);
  const alerts = page.getByRole('region', { name: 'Alerts' });
  await expect(alerts).toHaveText('No alerts');
  const quietTop = await figuresTop(page);

  await open(page, '/', `${QUIET_SERVICE_LEVEL}&alerts=live:1:100000`);
  await expect(alerts.getByRole('strong')).toHaveText(/^\d+ live calls?$/);
  await expect(alerts).toContainText('Warning');
  await expect(alerts).toContainText(/1 or more.*since \d/);
  await expect(page).toHaveTitle(/^⚠ \d+ live calls? · \(\d+\) Live calls · Callboard$/);
  await expectNoSeriousA11yViolations(page);
  await page.screenshot({ path: `${SHOTS}/alert-live.png` });

  // The strip keeps the height of its quiet line: nothing below it jumps when an alert trips.
  expect(await figuresTop(page)).toBe(quietTop);

  await alerts.getByRole('button', { name: /^Acknowledge/ }).click();
  await expect(alerts).toContainText('Acknowledged: quiet until it clears');
  expect(await figuresTop(page)).toBe(quietTop);
  await expect(page).toHaveTitle(/^\(\d+\) Live calls · Callboard$/);

  // The rules live in the address and the acknowledgement in the tab: after a reload the alert is back, still quiet.
  await page.reload();
  await expect(alerts.getByRole('strong')).toHaveText(/^\d+ live calls?$/);
  await expect(alerts).toContainText('Acknowledged: quiet until it clears');
  await expect(page).toHaveTitle(/^\(\d+\) Live calls · Callboard$/);
});

test('a supervisor ends a call from its row: asked first, then listed ended by them', async ({ page }) => {
  await open(page, '/', QUIET_SERVICE_LEVEL, desk.providerID);
  const agent = await idleAgent();
  // A long call: they answer at once, the number after 1 s, and they would talk for hours.
  await placeScripted(agent.subscriberID, { agent: 'answer', agentRingMs: 1000, remote: 'answer', remoteRingMs: 20_000, talkMs: 3_600_000 });
  const placed = await expect
    .poll(async () => (await listCalls()).find((call) => call.subscriberID === agent.subscriberID && call.answeredAt && !call.endedAt)?.callID, { timeout: 15_000 })
    .toBeDefined()
    .then(async () => (await listCalls()).find((call) => call.subscriberID === agent.subscriberID && call.answeredAt && !call.endedAt));
  await page.getByLabel('Find an agent').fill(agent.extension);
  // The board filters in a deferred render: the one tile is there a moment after the keystrokes.
  const tile = page.getByRole('list', { name: 'Agents' }).getByRole('button');
  await expect(tile).toHaveCount(1);
  await tile.click();
  const row = page.getByRole('table', { name: 'Live calls' }).getByRole('row').filter({ hasText: agent.firstName }).filter({ hasText: 'Talking' });
  await row.getByRole('button', { name: /^End call with/ }).click();

  const dialog = page.getByRole('alertdialog', { name: 'End this call?' });
  await expect(dialog).toContainText(`${agent.firstName} ${agent.lastName} (ext. ${agent.extension})`);
  await expect(dialog.getByRole('button', { name: 'Keep call' })).toBeFocused();
  await expectNoSeriousA11yViolations(page);
  await page.screenshot({ path: `${SHOTS}/end-call-dialog.png` });
  await dialog.getByRole('button', { name: 'End call' }).click();
  await expect(dialog).toBeHidden();

  await expect(page.getByRole('table', { name: 'Live calls' }).getByRole('row').filter({ hasText: 'by e2e-supervisor' })).toHaveCount(1, { timeout: 10_000 });
  expect((await listCalls()).find((call) => call.callID === placed?.callID)).toMatchObject({ endedBy: 'e2e-supervisor', endedAt: expect.any(String) });
  await expect(page.getByRole('list', { name: 'Agents' }).getByRole('button')).toContainText('Available', { timeout: 15_000 });
});

test('the live view with the board and an alert passes axe in both themes', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await open(page, '/', `${QUIET_SERVICE_LEVEL}&alerts=live:1:2`);
  await expect(page.getByRole('list', { name: 'Agents' }).getByRole('button').first()).toBeVisible();
  // The strip is there before anything trips: wait for the alert, then open the list in full.
  const alerts = page.getByRole('region', { name: 'Alerts' });
  await alerts.getByRole('button', { name: /^(Critical|Warning) \d+ live calls?/ }).click();
  await expect(alerts.getByRole('listitem')).toHaveCount(1);
  for (const scheme of ['light', 'dark'] as const) {
    await emulateSystemScheme(page, scheme);
    await expectNoSeriousA11yViolations(page);
    await page.screenshot({ path: `${SHOTS}/floor-${scheme}-1280.png`, fullPage: true });
  }
});

test('the wallboard with the board and an alert fits every screen from 720p to 4K, in both themes', async ({ page }) => {
  test.setTimeout(120_000);
  for (const [width, height] of [
    [1280, 720],
    [1920, 1080],
    [2560, 1440],
    [3840, 2160],
  ] as const) {
    await page.setViewportSize({ width, height });
    await open(page, '/wallboard', `${QUIET_SERVICE_LEVEL}&agents=1&alerts=live:1:2`);
    const tiles = page.getByRole('list', { name: 'Agents' }).getByRole('listitem');
    await expect(tiles.first()).toBeVisible();
    await expect(page.getByRole('region', { name: 'Alerts' })).toBeVisible();
    const fit = await pageFit(page);
    expect(fit.scrollHeight, `${width}x${height}: height`).toBeLessThanOrEqual(fit.height);
    expect(fit.scrollWidth, `${width}x${height}: width`).toBeLessThanOrEqual(fit.width);
    const last = await tiles.last().boundingBox();
    expect((last?.y ?? Infinity) + (last?.height ?? 0), `${width}x${height}: the last tile on screen`).toBeLessThanOrEqual(height);
    // The board refits a frame after its room changes (a banner comes, the screen turns): until then
    // its tiles, and the words in them for screen readers, must stay inside it. Read in the same task
    // as the change, before the board can measure its new room.
    const shrunk = await page.evaluate(() => {
      const header = document.querySelector('main > header') as HTMLElement;
      header.style.paddingBottom = '8vh';
      const root = document.scrollingElement ?? document.documentElement;
      const scrollHeight = root.scrollHeight;
      header.style.paddingBottom = '';
      return { scrollHeight, height: window.innerHeight };
    });
    expect(shrunk.scrollHeight, `${width}x${height}: the board's room shrinks`).toBeLessThanOrEqual(shrunk.height);
    if (width === 1920) {
      for (const scheme of ['dark', 'light'] as const) {
        await page.goto(`${service.baseURL}/wallboard?provider=pbx-main&${QUIET_SERVICE_LEVEL}&agents=1&alerts=live:1:2&theme=${scheme}`);
        await expect(tiles.first()).toBeVisible();
        await expectNoSeriousA11yViolations(page);
        await page.screenshot({ path: `${SHOTS}/wallboard-board-${scheme}-1080.png` });
      }
    }
  }
});
