import { act, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CallRecord } from '../../../../contract/call-record.js';
import type { Subscriber } from '../../../../contract/subscriber.js';
import { useCallBack } from '../../../lib/call-back.js';
import { formatPhoneNumber } from '../../../lib/format.js';
import type { Workspace } from '../../../lib/workspace.js';
import { stubFetch } from '../../../test-support/fetch-stub.js';
import { renderWithApp } from '../../../test-support/render.js';
import { ClickToCallPanel } from './click-to-call-panel.js';

const MAKE_CALL_URL = '/v1/accounts/demo/applications/support/providers/pbx-main/calls';

const subscriber = (
  id: string,
  firstName: string,
  lastName: string,
  extension: string,
  status: Partial<Subscriber> = {},
): Subscriber => ({
  providerSubscriberID: id,
  firstName,
  lastName,
  email: `${firstName.toLowerCase()}@example.com`,
  extension,
  number: `1555000${extension}`,
  registered: true,
  active: true,
  ...status,
});

const subscribers = [
  subscriber('agt-0001', 'Maya', 'Chen', '104'),
  subscriber('agt-0002', 'Omar', 'Haddad', '105', { registered: false }),
  subscriber('agt-0003', 'Léna', 'Park', '106', { active: false }),
];

const workspaceOf = (overrides: Partial<Workspace> = {}): Workspace => ({
  accountID: 'demo',
  accountName: 'Demo',
  applications: [{ id: 'support', name: 'Support' }],
  applicationID: 'support',
  providers: [
    { id: 'pbx-main', name: 'Main PBX', type: 'simulator', canEndCalls: false, canListen: false, softphone: false },
    { id: 'sip-trunk', name: 'SIP trunk', type: 'simulator', canEndCalls: false, canListen: false, softphone: false },
  ],
  provider: 'pbx-main',
  scopes: [{ accountID: 'demo', applicationID: 'support', providerID: 'pbx-main' }],
  permissions: ['calls:read', 'calls:write'],
  ...overrides,
});

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

const problem = (status: number, code: string, detail: string, extra: Record<string, unknown> = {}) =>
  new Response(JSON.stringify({ type: `urn:callboard:problem:${code}`, title: code, status, detail, code, ...extra }), {
    status,
    headers: { 'content-type': 'application/problem+json' },
  });

type MakeCall = (init: RequestInit) => Promise<Response>;

/** The service: subscribers from `listSubscribers`, make-call answered by `makeCall`. */
const mockService = ({
  makeCall = async () => new Response(null, { status: 204 }),
  listSubscribers = async () => json({ subscribers }),
}: { makeCall?: MakeCall; listSubscribers?: () => Promise<Response> } = {}) =>
  stubFetch({
    'GET /v1/accounts/:accountID/applications/:applicationID/providers/:providerID/subscribers': listSubscribers,
    'POST /v1/accounts/:accountID/applications/:applicationID/providers/:providerID/calls': ({ init }) => makeCall(init ?? {}),
  });

const postsOf = (fetchSpy: ReturnType<typeof mockService>) => fetchSpy.mock.calls.filter(([, init]) => init?.method === 'POST');
const keyOf = (call: Parameters<typeof fetch>) => (call[1]?.headers as Record<string, string>)['idempotency-key'];
const bodyOf = (call: Parameters<typeof fetch>) => JSON.parse(String(call[1]?.body)) as unknown;

const CallBackButton = ({ remoteNumber, subscriberID }: { remoteNumber: string; subscriberID?: string }) => {
  const callBack = useCallBack();
  return <button onClick={() => callBack({ remoteNumber, subscriberID })}>Call back {remoteNumber}</button>;
};

const renderPanel = ({
  workspace = workspaceOf(),
  calls = [] as CallRecord[],
  url = '/',
  extra,
}: { workspace?: Workspace; calls?: CallRecord[]; url?: string; extra?: ReactNode } = {}) => {
  const panel = (shown: CallRecord[]) => (
    <>
      <ClickToCallPanel workspace={workspace} calls={shown} />
      {extra}
    </>
  );
  const user = userEvent.setup();
  const view = renderWithApp(panel(calls), { url });
  return { user, showCalls: (next: CallRecord[]) => view.rerender(panel(next)) };
};

const subscriberSelect = () => screen.getByRole('combobox', { name: 'Subscriber' });
const numberInput = () => screen.getByRole('textbox', { name: 'Number to call' });
const placeButton = () => screen.getByRole('button', { name: 'Place call' });

/** Chooses a subscriber once the list has loaded, and pastes the number as an agent would. */
const fillForm = async (user: ReturnType<typeof userEvent.setup>, subscriberID: string, pasted: string) => {
  await screen.findByRole('option', { name: /Maya Chen/ });
  await user.selectOptions(subscriberSelect(), subscriberID);
  await user.click(numberInput());
  await user.clear(numberInput());
  await user.paste(pasted);
};

const deferred = () => {
  let resolve: (response: Response) => void = () => undefined;
  const promise = new Promise<Response>((done) => (resolve = done));
  return { promise, resolve };
};

afterEach(() => vi.restoreAllMocks());

describe('ClickToCallPanel', () => {
  it('sends the digits of a pasted formatted number, shown before sending', async () => {
    const fetchSpy = mockService();
    const { user } = renderPanel();
    await fillForm(user, 'agt-0001', '+1 (555) 123-4567');
    expect(screen.getByText('Will dial 15551234567')).toBeInTheDocument();

    await user.click(placeButton());

    await screen.findByText("Ringing Maya's phone…");
    const [post] = postsOf(fetchSpy);
    expect(String(post?.[0])).toBe(MAKE_CALL_URL);
    expect(bodyOf(post!)).toEqual({ providerSubscriberID: 'agt-0001', remoteNumber: '15551234567' });
    expect(keyOf(post!)).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('explains an invalid number inline and sends nothing', async () => {
    const fetchSpy = mockService();
    const { user } = renderPanel();
    await fillForm(user, 'agt-0001', '555-CALL-NOW');
    await user.click(placeButton());

    expect(numberInput()).toHaveAttribute('aria-invalid', 'true');
    expect(numberInput()).toHaveAccessibleDescription(/"C" is not part of a phone number/);
    expect(numberInput()).toHaveFocus();
    expect(postsOf(fetchSpy)).toHaveLength(0);
  });

  it('explains a too-short number when the field is left, before any submit', async () => {
    mockService();
    const { user } = renderPanel();
    await user.type(numberInput(), '12');
    expect(numberInput()).not.toHaveAttribute('aria-invalid');
    await user.tab();
    expect(numberInput()).toHaveAccessibleDescription(/at least 3 digits/);
  });

  it('asks for a subscriber instead of sending without one', async () => {
    const fetchSpy = mockService();
    const { user } = renderPanel();
    await screen.findByRole('option', { name: /Maya Chen/ });
    await user.type(numberInput(), '5551234567');
    await user.click(placeButton());
    expect(subscriberSelect()).toHaveAccessibleDescription('Choose the subscriber who places the call.');
    expect(subscriberSelect()).toHaveFocus();
    expect(postsOf(fetchSpy)).toHaveLength(0);
  });

  it('places one call for a double click, with the button disabled while in flight', async () => {
    const answer = deferred();
    const fetchSpy = mockService({ makeCall: () => answer.promise });
    const { user } = renderPanel();
    await fillForm(user, 'agt-0001', '555 123 4567');
    const button = placeButton();

    // Two clicks that land before React re-renders the button as disabled, then more once it is.
    act(() => {
      button.click();
      button.click();
    });
    await user.dblClick(button);
    await user.keyboard('{Enter}');

    expect(screen.getByRole('button', { name: 'Placing call…' })).toBeDisabled();
    expect(postsOf(fetchSpy)).toHaveLength(1);
    await act(async () => answer.resolve(new Response(null, { status: 204 })));
    await screen.findByText("Ringing Maya's phone…");
    expect(postsOf(fetchSpy)).toHaveLength(1);
  });

  it('retries after a network failure with the same Idempotency-Key, and a new intention gets a new one', async () => {
    let attempt = 0;
    const fetchSpy = mockService({
      makeCall: async () => {
        attempt += 1;
        if (attempt === 1) throw new TypeError('Failed to fetch');
        return new Response(null, { status: 204 });
      },
    });
    const { user } = renderPanel();
    await fillForm(user, 'agt-0001', '555.123.4567');
    await user.click(placeButton());

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Cannot reach the service: your call was not placed');
    expect(alert).toHaveTextContent('Retry is safe (it will not ring twice).');
    expect(alert).toHaveTextContent('Code: network_unreachable');

    await user.click(placeButton());
    await screen.findByText("Ringing Maya's phone…");
    await user.type(numberInput(), '5559876543');
    await user.click(placeButton());
    await waitFor(() => expect(postsOf(fetchSpy)).toHaveLength(3));

    const [first, retry, next] = postsOf(fetchSpy).map(keyOf);
    expect(retry).toBe(first);
    expect(next).not.toBe(first);
  });

  it('uses a new key when the number changes after a failure', async () => {
    let attempt = 0;
    const fetchSpy = mockService({
      makeCall: async () => {
        attempt += 1;
        return attempt === 1
          ? problem(503, 'provider_unavailable', 'Main PBX is unavailable: connection refused')
          : new Response(null, { status: 204 });
      },
    });
    const { user } = renderPanel();
    await fillForm(user, 'agt-0001', '5551234567');
    await user.click(placeButton());
    expect(await screen.findByRole('alert')).toHaveTextContent('Main PBX is unreachable right now');

    await user.type(numberInput(), '8');
    await user.click(placeButton());
    await waitFor(() => expect(postsOf(fetchSpy)).toHaveLength(2));
    const [first, second] = postsOf(fetchSpy).map(keyOf);
    expect(second).not.toBe(first);
  });

  it("shows the service's words and the code when the subscriber is not registered", async () => {
    mockService({
      makeCall: async () =>
        problem(409, 'subscriber_not_registered', 'Extension 105 (Omar Haddad) is not registered: their phone is offline'),
    });
    const { user } = renderPanel();
    await fillForm(user, 'agt-0002', '+1 (555) 123-4567');
    expect(subscriberSelect()).toHaveAccessibleDescription(/Omar Haddad's phone is offline \(not registered\)/);

    await user.click(placeButton());

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Extension 105 (Omar Haddad) is not registered: their phone is offline');
    expect(within(alert).getByText('Code: subscriber_not_registered')).toBeInTheDocument();
    expect(alert).not.toHaveTextContent(/generic/i);
  });

  it('puts field errors of a refused request on the matching inputs', async () => {
    mockService({
      makeCall: async () =>
        problem(400, 'validation_failed', 'The call request is not valid', {
          errors: [{ field: 'remoteNumber', message: 'must be 3 to 15 digits (0-9) with no spaces, dashes or other characters' }],
        }),
    });
    const { user } = renderPanel();
    await fillForm(user, 'agt-0001', '5551234567');
    await user.click(placeButton());

    expect(await screen.findByRole('alert')).toHaveTextContent('Code: validation_failed');
    expect(numberInput()).toHaveAttribute('aria-invalid', 'true');
    expect(numberInput()).toHaveAccessibleDescription(/The service says this number must be 3 to 15 digits/);
  });

  it('says when to retry after too many calls', async () => {
    mockService({
      makeCall: async () =>
        new Response(JSON.stringify({ type: 'x', title: 'x', status: 429, detail: 'Over the limit', code: 'rate_limited' }), {
          status: 429,
          headers: { 'content-type': 'application/problem+json', 'retry-after': '12' },
        }),
    });
    const { user } = renderPanel();
    await fillForm(user, 'agt-0001', '5551234567');
    await user.click(placeButton());
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many calls: try again in 12 s');
  });

  it('follows the call from ringing to connected to ended as the live list changes', async () => {
    mockService();
    const { user, showCalls } = renderPanel();
    await fillForm(user, 'agt-0001', '+1 (555) 123-4567');
    await user.click(placeButton());
    await screen.findByText("Ringing Maya's phone…");
    const live = screen.getByRole('status');
    expect(live).toHaveTextContent("Call placed. Ringing Maya's phone.");

    const startedAt = Date.now();
    const record: CallRecord = {
      callID: 'c-1',
      providerCallID: 'p-1',
      providerID: 'pbx-main',
      providerName: 'Main PBX',
      isOutbound: true,
      isMissedCall: false,
      remoteNumber: '15551234567',
      startedAt: new Date(startedAt).toISOString(),
      subscriberID: 'agt-0001',
      subscriberFirstName: 'Maya',
    };
    const someoneElse = { ...record, callID: 'c-2', subscriberID: 'agt-0009', answeredAt: new Date(startedAt).toISOString() };
    showCalls([someoneElse, record]);
    const progress = screen.getByRole('region', { name: 'Call to +1 (555) 123-4567' });
    expect(progress).toHaveAccessibleDescription(/^Ringing Maya, then \+1 \(555\) 123-4567… ringing \d:\d\d$/);
    const steps = () => within(progress).getAllByRole('listitem');
    expect(steps()[1]).toHaveAttribute('aria-current', 'step');
    expect(steps()[1]).toHaveTextContent('current step');

    const answeredAt = startedAt + 8_000;
    showCalls([someoneElse, { ...record, answeredAt: new Date(answeredAt).toISOString() }]);
    expect(progress).toHaveAccessibleDescription(/^Connected talking \d:\d\d$/);
    expect(steps()[2]).toHaveAttribute('aria-current', 'step');
    expect(live).toHaveTextContent('Connected: Maya and +1 (555) 123-4567 are talking.');

    const ended = {
      ...record,
      answeredAt: new Date(answeredAt).toISOString(),
      endedAt: new Date(answeredAt + 125_000).toISOString(),
    };
    showCalls([ended]);
    // Talk time and the table's start-to-end "total", both named: 8 s of ringing, then 2:05 of talk.
    expect(progress).toHaveAccessibleDescription('Call ended talked 2:05 · 2:13 total');
    expect(steps()[3]).toHaveAttribute('aria-current', 'step');
    expect(live).toHaveTextContent('Call ended: talked 2:05, 2:13 total.');

    showCalls([]);
    expect(progress).toHaveAccessibleDescription('Call ended talked 2:05 · 2:13 total');
  });

  it('leaves the fields untouched while the live list updates under the form', async () => {
    mockService();
    const { user, showCalls } = renderPanel();
    await fillForm(user, 'agt-0001', '555 0100');
    const search = () => screen.getByRole('searchbox', { name: 'Search subscribers by name or extension' });
    const fields = [subscriberSelect(), numberInput(), search()];
    const written: string[] = [];
    const observer = new MutationObserver((mutations) => written.push(...mutations.map((m) => `${m.attributeName}`)));
    for (const field of fields) observer.observe(field, { attributes: true });
    const call = (n: number): CallRecord => ({
      callID: `c-${n}`,
      providerCallID: `p-${n}`,
      providerID: 'pbx-main',
      providerName: 'Main PBX',
      isOutbound: false,
      isMissedCall: false,
      remoteNumber: '15550000000',
      startedAt: new Date(Date.UTC(2026, 0, 1, 9, 0, n)).toISOString(),
    });
    for (let n = 1; n <= 5; n += 1) showCalls([call(n)]);
    written.push(...observer.takeRecords().map((m) => `${m.attributeName}`));
    observer.disconnect();
    // Fields rendered anew get `type` set again, and `name` written, on each update of the calls.
    expect(written).toEqual([]);
    // The very elements: a field mounted anew would lose the agent's place in it, and show no write here.
    [subscriberSelect(), numberInput(), search()].forEach((field, i) => expect(field).toBe(fields[i]));
    expect(numberInput()).toHaveValue('555 0100');
  });

  it('reports an unanswered call plainly', async () => {
    mockService();
    const { user, showCalls } = renderPanel();
    await fillForm(user, 'agt-0001', '5551234567');
    await user.click(placeButton());
    await screen.findByText("Ringing Maya's phone…");
    // One reading of the clock for both ends: two readings a millisecond apart made it 0:04.
    const endedAt = Date.now();
    showCalls([
      {
        callID: 'c-1',
        providerCallID: 'p-1',
        providerID: 'pbx-main',
        providerName: 'Main PBX',
        isOutbound: true,
        isMissedCall: false,
        remoteNumber: '5551234567',
        startedAt: new Date(endedAt - 5_000).toISOString(),
        endedAt: new Date(endedAt).toISOString(),
        subscriberID: 'agt-0001',
      },
    ]);
    expect(screen.getByRole('region', { name: 'Call to (555) 123-4567' })).toHaveAccessibleDescription(
      'Not answered (busy or no answer) 0:05 total',
    );
  });

  it('fills the form from a call-back link and focuses the button', async () => {
    mockService();
    renderPanel({ url: '/?dial=15551234567&agent=agt-0001' });
    expect(numberInput()).toHaveValue('+1 (555) 123-4567');
    expect(screen.getByText('Will dial 15551234567')).toBeInTheDocument();
    await screen.findByRole('option', { name: /Maya Chen/ });
    expect(subscriberSelect()).toHaveValue('agt-0001');
    expect(placeButton()).toHaveFocus();
  });

  it('fills the number from a later call-back request and focuses the subscriber', async () => {
    mockService();
    const { user } = renderPanel({ extra: <CallBackButton remoteNumber="442079460958" /> });
    await screen.findByRole('option', { name: /Maya Chen/ });
    await user.click(screen.getByRole('button', { name: 'Call back 442079460958' }));
    expect(screen.getByText('Will dial 442079460958')).toBeInTheDocument();
    expect(subscriberSelect()).toHaveFocus();
  });

  it('searches subscribers by name or extension and says how many match', async () => {
    mockService();
    const { user } = renderPanel();
    await screen.findByRole('option', { name: /Maya Chen/ });
    const search = screen.getByRole('searchbox', { name: 'Search subscribers by name or extension' });

    await user.type(search, '106');
    expect(search).toHaveAccessibleDescription('1 of 3 match "106"');
    expect(screen.getByRole('option', { name: 'Léna Park · ext. 106 · inactive' })).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: /Maya Chen/ })).not.toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('1 of 3 match "106"'));

    await user.clear(search);
    await user.type(search, 'lena p');
    expect(search).toHaveAccessibleDescription('1 of 3 match "lena p"');

    await user.keyboard('{Enter}');
    expect(subscriberSelect()).toHaveValue('agt-0003');
    expect(subscriberSelect()).toHaveAccessibleDescription(/Léna Park's account is inactive/);
  });

  it('takes a typed subscriber ID when the service lists no subscribers', async () => {
    const fetchSpy = mockService({ listSubscribers: async () => problem(404, 'not_found', 'No such route') });
    const { user } = renderPanel();
    // The shared subscribers query retries once before it gives up.
    const idField = await screen.findByRole('textbox', { name: 'Subscriber ID' }, { timeout: 3000 });
    expect(idField).toHaveAccessibleDescription(/does not list Main PBX's subscribers/);
    await user.type(idField, 'ext-42');
    await user.type(numberInput(), '5551234567');
    await user.click(placeButton());
    await screen.findByText("Ringing ext-42's phone…");
    expect(bodyOf(postsOf(fetchSpy)[0]!)).toEqual({ providerSubscriberID: 'ext-42', remoteNumber: '5551234567' });
  });

  it('offers a provider choice when all providers are on screen', async () => {
    const fetchSpy = mockService();
    const workspace = workspaceOf({
      provider: 'all',
      scopes: [
        { accountID: 'demo', applicationID: 'support', providerID: 'pbx-main' },
        { accountID: 'demo', applicationID: 'support', providerID: 'sip-trunk' },
      ],
    });
    const { user } = renderPanel({ workspace });
    await user.selectOptions(screen.getByRole('combobox', { name: 'Provider' }), 'sip-trunk');
    await fillForm(user, 'agt-0001', '5551234567');
    await user.click(placeButton());
    await screen.findByText("Ringing Maya's phone…");
    expect(String(postsOf(fetchSpy)[0]?.[0])).toBe('/v1/accounts/demo/applications/support/providers/sip-trunk/calls');
  });

  it('lands a phone link in the form: number filled in and explained, nothing sent until the agent confirms', async () => {
    const fetchSpy = mockService();
    renderPanel({ url: `/?dial=${encodeURIComponent('+1-555-555-0123;ext=12')}` });
    expect(numberInput()).toHaveValue('+1-555-555-0123;ext=12');
    expect(numberInput()).toHaveAccessibleDescription(
      'Will dial 15555550123 Extension 12 is not dialed: ask for it once the call connects.',
    );
    await screen.findByRole('option', { name: /Maya Chen/ });
    // Without an agent named, the caller comes first.
    expect(subscriberSelect()).toHaveFocus();
    expect(postsOf(fetchSpy)).toHaveLength(0);
  });

  it('formats a plain tel: link and focuses the number when it cannot be dialed', async () => {
    mockService();
    renderPanel({ url: `/?dial=${encodeURIComponent('tel:+44%2020%207946%200958')}` });
    expect(numberInput()).toHaveValue(formatPhoneNumber('442079460958'));
    expect(screen.getByText('Will dial 442079460958')).toBeInTheDocument();
    vi.restoreAllMocks();

    mockService();
    renderPanel({ url: `/?dial=${encodeURIComponent('tel:*67-555-0123')}` });
    const [, second] = screen.getAllByRole('textbox', { name: 'Number to call' });
    expect(second).toHaveValue('*67-555-0123');
    expect(second).toHaveFocus();
    expect(second).toHaveAccessibleDescription(/"\*" is not part of a phone number/);
  });

  describe("with an agent's own token", () => {
    const agentWorkspace = () => workspaceOf({ subscriberIDs: ['agt-0001'] });

    it('shows whom the agent calls as instead of a picker, and places the call as them', async () => {
      const fetchSpy = mockService();
      const { user } = renderPanel({ workspace: agentWorkspace() });
      const caller = screen.getByRole('group', { name: 'You place calls as' });
      await waitFor(() => expect(caller).toHaveTextContent('Maya Chen · ext. 104 · registered'));
      expect(caller).toHaveAccessibleDescription('Your token places calls only as Maya Chen.');
      expect(screen.queryByRole('combobox', { name: 'Subscriber' })).not.toBeInTheDocument();
      expect(screen.queryByRole('searchbox')).not.toBeInTheDocument();

      await user.type(numberInput(), '555 123 4567');
      await user.click(placeButton());
      await screen.findByText("Ringing Maya's phone…");
      expect(bodyOf(postsOf(fetchSpy)[0]!)).toEqual({ providerSubscriberID: 'agt-0001', remoteNumber: '5551234567' });
    });

    it("calls back as the agent, whoever took the call, with the button ready", async () => {
      const fetchSpy = mockService();
      const { user } = renderPanel({ workspace: agentWorkspace(), url: '/?dial=15551234567&agent=agt-0002' });
      expect(placeButton()).toHaveFocus();
      await user.click(placeButton());
      await waitFor(() => expect(postsOf(fetchSpy)).toHaveLength(1));
      expect(bodyOf(postsOf(fetchSpy)[0]!)).toEqual({ providerSubscriberID: 'agt-0001', remoteNumber: '15551234567' });
    });

    it("says so when the agent's phone is offline or the agent is not in the provider's list", async () => {
      mockService();
      renderPanel({ workspace: workspaceOf({ subscriberIDs: ['agt-0002'] }) });
      const caller = screen.getByRole('group', { name: 'You place calls as' });
      await waitFor(() => expect(caller).toHaveAccessibleDescription(/Omar Haddad's phone is offline/));
      vi.restoreAllMocks();

      mockService();
      renderPanel({ workspace: workspaceOf({ subscriberIDs: ['agt-0042'] }) });
      const [, missing] = screen.getAllByRole('group', { name: 'You place calls as' });
      await waitFor(() => expect(missing).toHaveAccessibleDescription(/agt-0042 is not in Main PBX's list/));
    });

    it('offers only its own subscribers when the token has several', async () => {
      const fetchSpy = mockService();
      const { user } = renderPanel({ workspace: workspaceOf({ subscriberIDs: ['agt-0001', 'agt-0003'] }) });
      const choice = screen.getByRole('combobox', { name: 'You place calls as' });
      await waitFor(() => expect(within(choice).getAllByRole('option').map((o) => o.textContent)).toEqual([
        'Maya Chen · ext. 104 · registered',
        'Léna Park · ext. 106 · inactive',
      ]));
      await user.selectOptions(choice, 'agt-0003');
      await user.type(numberInput(), '5551234567');
      await user.click(placeButton());
      await waitFor(() => expect(postsOf(fetchSpy)).toHaveLength(1));
      expect(bodyOf(postsOf(fetchSpy)[0]!)).toMatchObject({ providerSubscriberID: 'agt-0003' });
    });
  });

  describe('phone links', () => {
    const offerButton = () => screen.queryByRole('button', { name: /phone links/ });
    /** jsdom has neither a real handler registry nor isSecureContext: each test says what the browser offers. */
    const browserOffers = ({ register, secure }: { register: unknown; secure: boolean }) => {
      Object.defineProperty(navigator, 'registerProtocolHandler', { value: register, configurable: true });
      Object.defineProperty(window, 'isSecureContext', { value: secure, configurable: true });
    };
    afterEach(() => {
      Reflect.deleteProperty(navigator, 'registerProtocolHandler');
      Reflect.deleteProperty(window, 'isSecureContext');
      localStorage.clear();
    });

    it('asks the browser to open tel: links in the form, once the agent chooses to', async () => {
      mockService();
      const register = vi.fn();
      browserOffers({ register, secure: true });
      const { user } = renderPanel();
      expect(register).not.toHaveBeenCalled();
      await user.click(screen.getByRole('button', { name: 'Open phone links here' }));
      expect(register).toHaveBeenCalledWith('tel', `${window.location.origin}/call?number=%s`);
      const offer = screen.getByRole('region', { name: 'Phone links' });
      expect(offer).toHaveTextContent(/Asked this browser to open phone links here/);
      expect(within(offer).getByRole('button', { name: 'Ask the browser again' })).toBeInTheDocument();
    });

    it('says plainly when the browser refuses', async () => {
      mockService();
      browserOffers({
        register: () => {
          throw new DOMException('The scheme is not allowed here', 'SecurityError');
        },
        secure: true,
      });
      const { user } = renderPanel();
      await user.click(screen.getByRole('button', { name: 'Open phone links here' }));
      expect(screen.getByRole('region', { name: 'Phone links' })).toHaveTextContent('The browser refused: The scheme is not allowed here');
    });

    it.each([
      ['lacks the API', { register: undefined, secure: true }],
      ['is not a secure context', { register: vi.fn(), secure: false }],
    ])('is not offered where the browser %s', (_what, offers) => {
      mockService();
      browserOffers(offers);
      renderPanel();
      expect(placeButton()).toBeInTheDocument();
      expect(offerButton()).not.toBeInTheDocument();
    });
  });

  it('explains, instead of a form, why a read-only token cannot place calls', () => {
    mockService();
    renderPanel({ workspace: workspaceOf({ permissions: ['calls:read'] }) });
    const panel = screen.getByRole('region', { name: 'Place a call' });
    expect(panel).toHaveTextContent(/lacks the calls:write permission/);
    expect(screen.queryByRole('button', { name: 'Place call' })).not.toBeInTheDocument();
  });
});
