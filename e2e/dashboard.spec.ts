/** The dashboard against the real service and its simulated phone system, in a real Chromium. */
import { brotliCompressSync } from 'node:zlib';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { listCallsResponseSchema } from '../src/contract/call-record.js';
import { paths } from '../src/contract/paths.js';
import { listSubscribersResponseSchema } from '../src/contract/subscriber.js';
import { formatPhoneNumber } from '../src/web/lib/format.js';
import { loadPhoneRules } from '../src/web/lib/phone-rules-loader.js';
import { emulateSystemScheme, expectNoSeriousA11yViolations } from './support/axe.js';
import { cutOffText, pageFit, visibleHeight } from './support/layout.js';
import { E2E_CONFIG, startService, type ServiceProcess } from './support/service-process.js';

const pbx = { accountID: 'e2e', applicationID: 'support', providerID: 'pbx-main' };
const SHOTS = 'test-results/screenshots';

let service: ServiceProcess;
test.beforeAll(async () => {
  // Numbers are expected as the dashboard writes them.
  await loadPhoneRules();
  service = await startService({ CALLBOARD_CONFIG: E2E_CONFIG });
});
test.afterAll(async () => {
  await service?.stop();
});

const api = (path: string, init: RequestInit = {}) =>
  fetch(`${service.baseURL}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${service.token}`, 'content-type': 'application/json', ...init.headers },
  });
const listCalls = async () => listCallsResponseSchema.parse(await (await api(paths.listCalls(pbx))).json()).calls;
const subscribers = async () => listSubscribersResponseSchema.parse(await (await api(paths.subscribers(pbx))).json()).subscribers;

const openLiveView = async (page: Page) => {
  await page.goto(service.dashboardURL);
  const table = page.getByRole('table', { name: 'Live calls' });
  await expect(table.getByRole('row').nth(1)).toBeVisible();
  return table;
};

test('the live view shows the calls, and follows them as the phone system adds and ends calls', async ({ page }) => {
  const table = await openLiveView(page);
  const before = await listCalls();
  const liveBefore = before.filter((c) => !c.endedAt);
  await expect(page.getByRole('heading', { name: 'Live calls', exact: true })).toBeVisible();
  await expect(page).toHaveTitle(/^\(\d+\) Live calls/);

  // The simulator runs 20x fast here: within seconds calls start and calls disappear.
  let added: string | undefined;
  let gone: string | undefined;
  await expect
    .poll(
      async () => {
        const now = await listCalls();
        added = now.find((c) => !before.some((b) => b.callID === c.callID) && c.remoteNumber !== '')?.remoteNumber;
        gone = liveBefore.find((b) => !now.some((c) => c.callID === b.callID) && b.remoteNumber !== '')?.remoteNumber;
        return Boolean(added && gone);
      },
      { timeout: 45_000, intervals: [1000] },
    )
    .toBe(true);
  // The table renders the rows in view: the search brings each call into it, however many are live.
  const search = page.getByPlaceholder('Number, name, extension, call ID');
  await search.fill(added as string);
  await expect(table.getByText(formatPhoneNumber(added as string)).first()).toBeVisible({ timeout: 10_000 });
  await search.fill(gone as string);
  await expect(table.getByText(formatPhoneNumber(gone as string))).toHaveCount(0, { timeout: 10_000 });
  await search.fill('');

  await expectNoSeriousA11yViolations(page);
  await page.screenshot({ path: `${SHOTS}/live-light.png`, fullPage: true });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: `${SHOTS}/live-dark.png`, fullPage: true });
});

test('no page breaks its Content-Security-Policy, and every script and stylesheet arrives compressed', async ({ page }) => {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) => seen.push(`${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}`));
  });
  const encodings = new Map<string, string>();
  const bodies = new Map<string, Promise<Buffer>>();
  page.on('response', (response) => {
    const path = new URL(response.url()).pathname;
    if (!/\/assets\/.+\.(js|css)$/.test(path)) return;
    encodings.set(path, response.headers()['content-encoding'] ?? 'none');
    bodies.set(path, response.body());
  });
  for (const path of ['/', '/wallboard', '/analytics']) {
    await page.goto(service.dashboardURL.replace(/\/#/, `${path}#`));
    await expect(page.getByRole('main')).toBeVisible();
    await page.waitForTimeout(1500);
    expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations), path).toEqual([]);
  }
  expect(encodings.size).toBeGreaterThan(3);
  for (const [asset, encoding] of encodings) {
    if (encoding === 'br') continue;
    // Sent as it is only where brotli would not save the header it costs (the build keeps no copy of a file that small).
    const body = await bodies.get(asset);
    expect(encoding, asset).toBe('none');
    expect(brotliCompressSync(body as Buffer).length + 24, asset).toBeGreaterThanOrEqual((body as Buffer).length);
  }
});

test('every row state and threshold mark reads at WCAG AA, in both themes (axe)', async ({ page }) => {
  test.setTimeout(150_000);
  const agent = (await subscribers()).find((s) => s.registered && s.active);
  if (!agent) throw new Error('the simulator should have a registered agent');
  // The agent's phone rings for an hour of simulated time (3 minutes here): a ring that grows long.
  await api(paths.simulatorNextPlacedCall(pbx), {
    method: 'PUT',
    body: JSON.stringify({ agent: 'answer', agentRingMs: 3_600_000 }),
  });
  const placed = await api(paths.makeCall(pbx), {
    method: 'POST',
    headers: { 'idempotency-key': `long-ring-${Date.now()}` },
    body: JSON.stringify({ providerSubscriberID: agent.providerSubscriberID, remoteNumber: '442079460958' }),
  });
  expect(placed.status).toBe(204);

  // Thresholds as low as a supervisor may set them, so the simulator's real calls cross them.
  await openLiveView(page);
  await page.getByRole('button', { name: 'Thresholds' }).click();
  await page.getByRole('spinbutton', { name: 'Long call after' }).fill('1');
  await page.getByRole('spinbutton', { name: 'Long ring after' }).fill('5');
  await page.getByRole('button', { name: 'Save thresholds' }).click();
  await expect(page.getByText('Saved.')).toBeVisible();

  // Both providers: the real-speed trunk has calls talking for minutes, the fast PBX rings, misses and ends calls every second.
  const directions = new Set<string>();
  for (const [state, label, mark] of [
    ['ringing', 'Ringing', 'Long ring'],
    ['talking', 'Talking', 'Long call'],
    ['missed', 'Missed', undefined],
    ['ended', 'Ended', undefined],
  ] as const) {
    await page.goto(`${service.baseURL}/?provider=all&state=${state}&sort=duration&dir=desc`);
    const table = page.getByRole('table', { name: 'Live calls' });
    await expect(table.getByRole('row').nth(1)).toContainText(label, { timeout: 45_000 });
    // A panel's durations and marks follow the clock while it is on screen: the reader looks at the table.
    await table.scrollIntoViewIfNeeded();
    if (mark) await expect(table.getByText(mark).first()).toBeVisible({ timeout: 60_000 });
    for (const direction of await table
      .getByRole('cell')
      .filter({ hasText: /^(Inbound|Outbound)$/ })
      .allTextContents())
      directions.add(direction);
    for (const colorScheme of ['light', 'dark'] as const) {
      // Without motion, and once the page has switched: a colour change under way would be scanned half-done.
      await emulateSystemScheme(page, colorScheme);
      await expectNoSeriousA11yViolations(page);
    }
    await page.emulateMedia({ colorScheme: 'light' });
  }
  expect([...directions].sort()).toEqual(['Inbound', 'Outbound']);
});

test('click-to-call with a pasted number sends digits only, rings, then connects as an outbound call', async ({ page }) => {
  const agent = (await subscribers()).find((s) => s.registered && s.active);
  if (!agent) throw new Error('the simulator should have a registered agent');
  // Simulated ms at 20x speed: the agent's phone rings ~4 s, the customer's ~2 s, then they talk.
  await api(paths.simulatorNextPlacedCall(pbx), {
    method: 'PUT',
    body: JSON.stringify({ agent: 'answer', agentRingMs: 80_000, remote: 'answer', remoteRingMs: 40_000, talkMs: 1_200_000 }),
  });
  const table = await openLiveView(page);
  const panel = page.getByRole('region', { name: 'Place a call' });
  await panel.getByLabel('Subscriber', { exact: true }).selectOption(agent.providerSubscriberID);
  await panel.getByLabel('Number to call').fill('+1 (555) 123-4567');
  await expect(panel.getByText('15551234567')).toBeVisible();

  const request = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith(paths.makeCall(pbx)));
  await panel.getByRole('button', { name: 'Place call' }).click();
  const sent = await request;
  expect(sent.postDataJSON()).toEqual({ providerSubscriberID: agent.providerSubscriberID, remoteNumber: '15551234567' });
  expect(sent.headers()['idempotency-key']).toBeTruthy();

  // The table renders the rows in view: the search brings the new call into it, however many calls are live.
  await page.getByPlaceholder('Number, name, extension, call ID').fill('5551234567');
  const row = table.getByRole('row').filter({ hasText: '+1 (555) 123-4567' });
  await expect(row).toContainText('Ringing', { timeout: 10_000 });
  await expect(row).toContainText('Outbound');
  await expect(panel).toContainText(/Ringing/);
  await page.screenshot({ path: `${SHOTS}/click-to-call-ringing.png`, fullPage: true });
  await expect(row).toContainText('Talking', { timeout: 15_000 });
  await expect(panel).toContainText('Connected', { timeout: 5_000 });
  await page.screenshot({ path: `${SHOTS}/click-to-call-connected.png`, fullPage: true });
});

test('an invalid number is refused inline and no request is sent', async ({ page }) => {
  await openLiveView(page);
  const posts: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST') posts.push(r.url());
  });
  const panel = page.getByRole('region', { name: 'Place a call' });
  const agent = (await subscribers()).find((s) => s.registered && s.active);
  await panel.getByLabel('Subscriber', { exact: true }).selectOption(agent?.providerSubscriberID ?? '');
  await panel.getByLabel('Number to call').fill('555-CALL-NOW');
  await panel.getByRole('button', { name: 'Place call' }).click();
  await expect(panel.getByText(/"C" is not part of a phone number/)).toBeVisible();
  await expect(panel.getByLabel('Number to call')).toHaveAttribute('aria-invalid', 'true');
  await page.waitForTimeout(500);
  expect(posts).toEqual([]);
});

test('an unregistered subscriber gets the plain reason and the code', async ({ page }) => {
  const offline = (await subscribers()).find((s) => !s.registered);
  if (!offline) throw new Error('the simulator should have an unregistered agent');
  await openLiveView(page);
  const panel = page.getByRole('region', { name: 'Place a call' });
  await panel.getByLabel('Subscriber', { exact: true }).selectOption(offline.providerSubscriberID);
  await panel.getByLabel('Number to call').fill('555 0199');
  await panel.getByRole('button', { name: 'Place call' }).click();
  await expect(panel.getByText(`Extension ${offline.extension}`).first()).toBeVisible();
  await expect(panel.getByText(/not registered: their phone is offline/)).toBeVisible();
  await expect(panel.getByText(/subscriber_not_registered/)).toBeVisible();
  await expectNoSeriousA11yViolations(page);
});

test('a provider outage shows the stale banner over the last data, then recovers by itself', async ({ page }) => {
  const table = await openLiveView(page);
  await api(paths.simulatorFailure(pbx), { method: 'PUT', body: JSON.stringify({ mode: 'unavailable' }) });
  try {
    await expect(page.getByText(/Not live: showing calls as of/)).toBeVisible({ timeout: 25_000 });
    await expect(table.getByRole('row').nth(1)).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/live-stale.png`, fullPage: true });
    // Data that is no longer live must still be readable: it loses its colours, not its contrast.
    await expect(page.locator('[data-stale]')).toHaveCount(1);
    for (const colorScheme of ['light', 'dark'] as const) {
      await emulateSystemScheme(page, colorScheme);
      await expectNoSeriousA11yViolations(page);
    }
    await page.goto(`${service.baseURL}/wallboard?theme=light`);
    await expect(page.getByText(/Not live/).first()).toBeVisible({ timeout: 25_000 });
    // The wall screen says why, as the live view does: the provider's own problem.
    await expect(page.getByText(/\(provider_unavailable\)\. Reconnecting automatically/)).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await page.screenshot({ path: `${SHOTS}/wallboard-stale.png` });
    await page.goto(service.dashboardURL);
    await expect(page.getByText(/Not live: showing calls as of/)).toBeVisible({ timeout: 25_000 });
  } finally {
    await api(paths.simulatorFailure(pbx), { method: 'PUT', body: JSON.stringify({ mode: null }) });
  }
  await expect(page.getByText(/Not live: showing calls as of/)).toHaveCount(0, { timeout: 15_000 });
  await expect(page.getByText(/Live · updated/)).toBeVisible();
  await expect(page.locator('[data-stale]')).toHaveCount(0);
});

test('a part whose code cannot be fetched (the service updated under an open page) says so in place; the rest works, and it loads on Try again', async ({
  page,
}) => {
  const chartCode = /\/assets\/concurrency-area-chart-[\w-]+\.js$/;
  await page.route(chartCode, (route) => route.abort());
  const table = await openLiveView(page);
  const failure = page
    .getByRole('alert')
    .filter({ hasText: 'The chart could not load: the service may have been updated, or be out of reach.' });
  await expect(failure).toBeVisible();
  await expect(table.getByRole('row').nth(1)).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await failure.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/live-chart-failed.png` });
  await page.unroute(chartCode);
  await failure.getByRole('button', { name: 'Try again' }).click();
  await expect(
    page
      .getByRole('figure', { name: /^Chart of concurrent live calls/ })
      .locator('svg')
      .first(),
  ).toBeVisible();
  await expect(failure).toHaveCount(0);
});

test('a page whose code cannot be fetched says so, and reloads by itself once the service answers', async ({ page }) => {
  const pageCode = /\/assets\/wallboard-page-[\w-]+\.js$/;
  await page.route(pageCode, (route) => route.abort());
  await page.goto(service.dashboardURL);
  await expect(page.getByRole('table', { name: 'Live calls' })).toBeVisible();
  await page.goto(`${service.baseURL}/wallboard`);
  await expect(page.getByRole('heading', { name: 'This page could not load' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await page.unroute(pageCode);
  // It checks every 15 s that the service answers, then reloads.
  await expect(page.getByRole('heading', { name: 'This page could not load' })).toHaveCount(0, { timeout: 20_000 });
  await expect(page.getByRole('heading', { name: 'Live calls', level: 1 })).toBeVisible({ timeout: 20_000 });
});

test('the live chart reads out the sample under the keyboard’s arrows as under the pointer, and passes axe doing so', async ({ page }) => {
  await openLiveView(page);
  const chart = page.getByRole('figure', { name: /^Chart of concurrent live calls/ });
  const readout = chart.getByRole('application', { name: /left and right arrow keys/ });
  await readout.focus();
  await page.keyboard.press('ArrowRight');
  const shown = chart.locator('.recharts-tooltip-wrapper');
  await expect(shown).toContainText(/\d{2}:\d{2}:\d{2}\s*Inbound (\d+|no sample)\s*Outbound (\d+|no sample)/);
  const first = await shown.textContent();
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(shown).not.toHaveText(first ?? '');
  await expectNoSeriousA11yViolations(page);
  await chart.screenshot({ path: `${SHOTS}/live-chart-readout.png` });
  // The pointer reads the same out.
  await readout.blur();
  const box = await readout.boundingBox();
  if (box) await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await expect(shown).toContainText(/Inbound (\d+|no sample)/);
});

test('the wallboard renders large, dark by default, and light on request', async ({ page }) => {
  await page.setViewportSize({ width: 1920, height: 1080 });
  await openLiveView(page);
  await page.goto(`${service.baseURL}/wallboard`);
  await expect(page.getByText('Live calls').first()).toBeVisible();
  await expect(page.locator('html')).toHaveClass(/dark/);
  await page.waitForTimeout(4000);
  await expectNoSeriousA11yViolations(page);
  await page.screenshot({ path: `${SHOTS}/wallboard-dark.png` });
  await page.goto(`${service.baseURL}/wallboard?theme=light&scale=1.25`);
  await expect(page.locator('html')).not.toHaveClass(/dark/);
  await page.waitForTimeout(2000);
  await page.screenshot({ path: `${SHOTS}/wallboard-light.png` });
});

test('the wallboard on a phone held upright: its words 12px and up, the header one item a row', async ({ page }) => {
  await page.setViewportSize({ width: 412, height: 823 });
  await openLiveView(page);
  await page.goto(`${service.baseURL}/wallboard`);
  const title = page.getByRole('heading', { name: 'Live calls', exact: true });
  await expect(title).toBeVisible();
  const px = (locator: Locator) => locator.evaluate((element) => parseFloat(getComputedStyle(element).fontSize));
  expect(await px(page.locator('html'))).toBeGreaterThanOrEqual(8);
  expect(await px(page.locator('header p').first())).toBeGreaterThanOrEqual(12);
  // Stacked from the start, so the row cannot re-wrap as the freshness words and the clock arrive.
  expect(await page.locator('header').evaluate((header) => getComputedStyle(header).flexDirection)).toBe('column');
});

const statistics = (page: Page) => page.getByRole('region', { name: 'Call statistics' });

test("the live view's tiles show every number whole, on a desk screen, a large one and a phone", async ({ page }) => {
  for (const [width, height] of [
    [1280, 720],
    [1920, 1080],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await openLiveView(page);
    // Written out by the phone rules, which load just after the first data: "+1 (415) 555-0123 · inbound" (or a withheld caller's).
    await expect(page.getByRole('group', { name: 'Longest live call' })).toContainText(/(\+\d[\d ()-]+|Withheld) · (inbound|outbound)/);
    expect(await cutOffText(statistics(page)), `${width}x${height}`).toEqual([]);
    const fit = await pageFit(page);
    expect(fit.scrollWidth, `${width}x${height}: no sideways scrolling`).toBeLessThanOrEqual(fit.width);
    await page.screenshot({ path: `${SHOTS}/live-${width}x${height}.png` });
  }
});

test('a large center: "1234 in · 567 out" stays on one line on the wallboard, so the chart keeps its share of the screen', async ({ page }) => {
  test.setTimeout(120_000);
  // The phone system as a center of 1,801 live calls would report it; the dashboard polls it (no stream).
  const now = Date.now();
  const calls = Array.from({ length: 1801 }, (_, i) => ({
    callID: `large-${i}`,
    providerCallID: `large-${i}`,
    providerID: pbx.providerID,
    providerName: 'Main PBX',
    isOutbound: i >= 1234,
    isMissedCall: false,
    remoteNumber: `1415555${String(i).padStart(4, '0')}`,
    startedAt: new Date(now - 60_000 - i * 1000).toISOString(),
    answeredAt: new Date(now - 50_000 - i * 1000).toISOString(),
  }));
  await page.route('**/calls/stream?**', (route) =>
    route.fulfill({ status: 404, contentType: 'application/problem+json', body: JSON.stringify({ title: 'Not Found', status: 404 }) }),
  );
  await page.route(
    (url) => url.pathname === paths.listCalls(pbx) && url.search === '',
    (route) => route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ calls, totalCalls: calls.length }) }),
  );
  await openLiveView(page);
  for (const [width, height, scale] of [
    [1280, 720, undefined],
    [1366, 768, 1.25],
    [1920, 1080, 1],
    [3840, 2160, 2],
  ] as const) {
    const label = `${width}x${height} at scale ${scale ?? 'unset'}`;
    await page.setViewportSize({ width, height });
    await page.goto(`${service.baseURL}/wallboard${scale === undefined ? '' : `?scale=${scale}`}`);
    const directions = page.getByRole('group', { name: 'Inbound / outbound' });
    await expect(directions).toContainText(/1234 in\s*·\s*567 out/);
    const [inbound, outbound] = await Promise.all(['in', 'out'].map((unit) => directions.getByText(unit, { exact: true }).boundingBox()));
    expect(Math.abs((inbound?.y ?? 0) - (outbound?.y ?? Infinity)), `${label}: one line`).toBeLessThan(2);
    const fit = await pageFit(page);
    expect(fit.scrollHeight, `${label}: height`).toBeLessThanOrEqual(fit.height);
    const chart = page.getByRole('figure', { name: /^Chart of concurrent live calls/ });
    expect(await visibleHeight(chart), `${label}: chart`).toBeGreaterThanOrEqual(height / 6);
    expect(await cutOffText(statistics(page), { onScreen: true }), label).toEqual([]);
  }
  await page.screenshot({ path: `${SHOTS}/wallboard-large-center.png` });
  // The live view's tile on a desk screen and a phone: the figure fits its box, units included.
  for (const [width, height] of [
    [1280, 720],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.goto(service.dashboardURL);
    const directions = page.getByRole('group', { name: 'Inbound / outbound' });
    await expect(directions).toContainText(/1234 in\s*·\s*567 out/);
    const figure = directions.getByText('in', { exact: true }).locator('xpath=ancestor::p[1]');
    const { scrollWidth, clientWidth } = await figure.evaluate((p) => ({ scrollWidth: p.scrollWidth, clientWidth: p.clientWidth }));
    expect(scrollWidth, `${width}x${height}: the figure fits its tile`).toBeLessThanOrEqual(clientWidth);
  }
});

test('the wallboard fits every screen from 720p to 4K at any scale: no scrolling, the chart on screen, no number cut', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await openLiveView(page);
  for (const [width, height, scale] of [
    [1280, 720, undefined],
    [1280, 720, 2],
    [1366, 768, 1.25],
    [1920, 1080, 1],
    [1920, 1080, 1.25],
    [1920, 1080, 2],
    [2560, 1440, 0.75],
    [3840, 2160, 1],
    [3840, 2160, 2],
  ] as const) {
    const label = `${width}x${height} at scale ${scale ?? 'unset'}`;
    await page.setViewportSize({ width, height });
    await page.goto(`${service.baseURL}/wallboard${scale === undefined ? '' : `?scale=${scale}`}`);
    const chart = page.getByRole('figure', { name: /^Chart of concurrent live calls/ });
    await expect(chart.locator('svg')).toBeVisible();
    await expect(page.getByRole('group', { name: 'Longest live call' })).toContainText(/(\+\d[\d ()-]+|Withheld) · (inbound|outbound)/);

    const fit = await pageFit(page);
    expect(fit.scrollHeight, `${label}: height`).toBeLessThanOrEqual(fit.height);
    expect(fit.scrollWidth, `${label}: width`).toBeLessThanOrEqual(fit.width);
    // The chart gives way to the tiles, but stays a chart: a sixth of the screen at the least.
    expect(await visibleHeight(chart), `${label}: chart`).toBeGreaterThanOrEqual(height / 6);
    expect(await cutOffText(statistics(page), { onScreen: true }), label).toEqual([]);
    if (width === 1280 || scale === 1.25)
      await page.screenshot({ path: `${SHOTS}/wallboard-${width}x${height}-scale-${scale ?? 1}.png` });
  }
});

/** Every layout shift of the page from its start: a string, as the page runs it without the test's own helpers. */
const RECORD_LAYOUT_SHIFTS = `
  window.layoutShifts = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      window.layoutShifts.push({ value: entry.value, moved: entry.sources.map((source) => source.node ? source.node.textContent.slice(0, 40) : '') });
  }).observe({ type: 'layout-shift', buffered: true });
`;

const held = () => {
  let release = () => {};
  const until = new Promise<void>((resolve) => (release = resolve));
  return { until, release };
};

test('the wallboard does not move as its figures arrive: the tiles have their final size from the first paint', async ({ page }) => {
  test.setTimeout(120_000);
  await openLiveView(page);
  await page.addInitScript(RECORD_LAYOUT_SHIFTS);
  for (const [width, height, scale] of [
    [1920, 1080, undefined],
    [1280, 720, undefined],
    [1280, 720, 1.25],
    [412, 823, undefined],
  ] as const) {
    const label = `${width}x${height} at scale ${scale ?? 'unset'}`;
    await page.setViewportSize({ width, height });
    // The figures wait until the wallboard has painted its tiles without them, then come one source at a time.
    const calls = held();
    const levels = held();
    const others = held();
    const gate = (url: URL) => (/\/calls(\/stream)?$/.test(url.pathname) ? calls : url.pathname.endsWith('/service-levels') ? levels : others);
    await page.route(
      (url) => url.pathname.startsWith('/v1/accounts/'),
      async (route) => {
        await gate(new URL(route.request().url())).until;
        await route.continue().catch(() => undefined);
      },
    );
    await page.goto(`${service.baseURL}/wallboard${scale === undefined ? '' : `?scale=${scale}`}`);
    await expect(page.getByRole('group', { name: 'Live calls now' })).toHaveAttribute('aria-busy', 'true');
    await page.evaluate(() => new Promise((painted) => requestAnimationFrame(() => requestAnimationFrame(painted))));
    calls.release();
    // Written out by the phone rules, which load after the calls.
    await expect(page.getByRole('group', { name: 'Longest live call' })).toContainText(/(\+\d[\d ()-]+|Withheld) · (inbound|outbound)|No call in progress/);
    levels.release();
    await expect(page.getByRole('group', { name: 'Service level' })).not.toHaveAttribute('aria-busy');
    others.release();
    await expect(page.getByRole('group', { name: 'Missed, last 15 min' })).not.toHaveAttribute('aria-busy');
    await expect(page.getByRole('figure', { name: /^Chart of concurrent live calls/ }).locator('svg')).toBeVisible();
    await page.waitForTimeout(1000);

    const shifts = await page.evaluate(() => (window as unknown as { layoutShifts: { value: number; moved: string[] }[] }).layoutShifts);
    // Text that re-wraps inside its held box (a number written out by the phone rules) moves a few words: a thousandth or so.
    // One line of a tile arriving late moves the chart below it, 0.01 and more.
    const total = shifts.reduce((sum, shift) => sum + shift.value, 0);
    expect(total, `${label}: ${JSON.stringify(shifts)}`).toBeLessThan(0.01);
    await page.unrouteAll({ behavior: 'ignoreErrors' });
  }
});
