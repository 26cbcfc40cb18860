import { useQuery } from '@tanstack/react-query';
import { act, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MeResponse } from '../../../../contract/me.js';
import { useApi } from '../../../lib/api/api-context.js';
import { meQueryOptions } from '../../../lib/api/me-query.js';
import { notePlacedCall } from '../../../lib/placed-calls.js';
import { callRecord } from '../../../test-support/call-record.js';
import { FakeSession, FakeUA, loadFakeJsSIP, resetFakeJsSIP } from '../../../test-support/fake-jssip.js';
import { stubFetch } from '../../../test-support/fetch-stub.js';
import { renderWithApp, testSession } from '../../../test-support/render.js';
import { SoftphoneDock } from './softphone-dock.js';

const PROVIDER = '/v1/accounts/:accountID/applications/:applicationID';
const CREDENTIALS = `POST ${PROVIDER}/providers/:providerID/softphone/credentials`;

const provider = (softphone: boolean) => ({ id: 'pbx-main', name: 'Main PBX', type: 'kamailio', canEndCalls: false, canListen: false, softphone });

const meWith = (over: Partial<MeResponse> = {}, softphone = true): MeResponse => ({
  account: { id: 'demo', name: 'Demo' },
  applications: [{ id: 'support', name: 'Support desk', providers: [provider(softphone)] }],
  permissions: ['calls:read', 'calls:write'],
  subscriberIDs: ['1001'],
  ...over,
});

const credentials = {
  websocketURL: 'wss://pbx.example.com/ws',
  sipURI: 'sip:1001@pbx.example.com',
  authorizationUser: '1767225600:1001',
  password: 'secret-digest',
  displayName: 'Maya Chen',
  expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
  iceServers: [],
};

/** The service for the phone: /v1/me, the credentials (their requests' bodies noted), and the journal of a caller. */
const stubService = (me: MeResponse) => {
  const asked: unknown[] = [];
  const spy = stubFetch({
    'GET /v1/me': () => Response.json(me),
    [`GET ${PROVIDER}/providers/:providerID/subscribers`]: () =>
      Response.json({
        subscribers: [{ providerSubscriberID: '1002', firstName: 'Maya', lastName: 'Chen', email: 'maya@example.com', extension: '102', number: '', registered: true, active: true }],
      }),
    [CREDENTIALS]: ({ init }) => (asked.push(JSON.parse(String(init?.body))), Response.json(credentials)),
    [`GET ${PROVIDER}/provider/:providerID/calls`]: () =>
      Response.json({
        calls: [
          callRecord('c-old', { remoteNumber: '15555550100', isMissedCall: true, startedAt: '2026-11-20T08:00:00.000Z', endedAt: '2026-11-20T08:01:00.000Z' }),
          callRecord('c-other', { remoteNumber: '15555550199' }),
        ],
        totalCalls: 2,
      }),
    [`GET ${PROVIDER}/provider/:providerID/missed-calls`]: () =>
      Response.json({
        fromDate: '2026-11-21T09:00:00.000Z',
        toDate: '2026-11-22T09:00:00.000Z',
        shortAbandonSeconds: 5,
        missedCalls: [{ callID: 'c-old', remoteNumber: '15555550100', startedAt: '2026-11-20T08:00:00.000Z', endedAt: '2026-11-20T08:01:00.000Z', attempts: 0 }],
        totalMissedCalls: 1,
        calledBackWithinHour: null,
      }),
  });
  return { asked, spy };
};

/** The dock, and a line that shows once `/v1/me` is in: the dock has decided by then. */
const DockBesideMe = () => {
  const me = useQuery(meQueryOptions(useApi()));
  return (
    <>
      <SoftphoneDock loadJsSIP={loadFakeJsSIP} />
      {me.isSuccess ? <p>/v1/me answered</p> : null}
    </>
  );
};

const phoneSwitch = () => screen.findByRole('switch', { name: 'Browser phone' });

/** The dock with the phone already on (as kept on this device), registered. */
const readyDock = async () => {
  localStorage.setItem('callboard.softphone', JSON.stringify({ on: true }));
  stubService(meWith());
  renderWithApp(<SoftphoneDock loadJsSIP={loadFakeJsSIP} />);
  await expect.poll(() => FakeUA.made.length).toBe(1);
  const ua = FakeUA.made[0] as FakeUA;
  act(() => ua.emit('registered'));
  await screen.findByText('Ready for calls');
  return ua;
};

afterEach(resetFakeJsSIP);

describe('the browser phone in the header', () => {
  it('is offered only where a provider has one and the connection has a subscriber to be there', async () => {
    stubService(meWith({}, false));
    const first = renderWithApp(<DockBesideMe />);
    await screen.findByText('/v1/me answered');
    expect(screen.queryByRole('switch')).not.toBeInTheDocument();
    first.unmount();

    // A supervisor signed in, with no subscriber of their own.
    stubService(meWith({ subscriberIDs: undefined, person: { subject: 's', email: 'grace@example.com', name: 'Grace' }, roles: ['supervisor'] }));
    const second = renderWithApp(<DockBesideMe />, { connection: testSession() });
    await screen.findByText('/v1/me answered');
    expect(screen.queryByRole('switch')).not.toBeInTheDocument();
    second.unmount();

    // A token allowed any subscriber: it chooses one, from the provider's list or typed.
    const user = userEvent.setup();
    const { asked } = stubService(meWith({ subscriberIDs: undefined }));
    renderWithApp(<SoftphoneDock loadJsSIP={loadFakeJsSIP} />);
    await user.click(await phoneSwitch());
    const field = await screen.findByRole('combobox', { name: 'Subscriber ID' });
    expect(screen.getByRole('region', { name: 'Browser phone' })).toHaveTextContent('Not connected');
    expect(FakeUA.made).toEqual([]);
    await user.type(field, '1002');
    await user.click(screen.getByRole('button', { name: 'Use this line' }));
    await expect.poll(() => FakeUA.made.length).toBe(1);
    expect(asked).toEqual([{ providerSubscriberID: '1002' }]);
  });

  it('loads JsSIP only once turned on, registers as the subscriber, and keeps the choice but never the password', async () => {
    const user = userEvent.setup();
    const loader = vi.fn(loadFakeJsSIP);
    const { asked } = stubService(meWith());
    renderWithApp(<SoftphoneDock loadJsSIP={loader} />);
    const toggle = await phoneSwitch();
    expect(toggle).toHaveAttribute('aria-checked', 'false');
    expect(loader).not.toHaveBeenCalled();

    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-checked', 'true');
    expect(await screen.findByText('Connecting…')).toBeInTheDocument();
    await expect.poll(() => loader.mock.calls.length).toBe(1);
    expect(asked).toEqual([{ providerSubscriberID: '1001' }]);
    await expect.poll(() => FakeUA.made.length).toBe(1);
    act(() => FakeUA.made[0]?.emit('registered'));
    expect(await screen.findByText('Ready for calls')).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Browser phone' })).toHaveTextContent('As 1001 at Main PBX');

    const kept = localStorage.getItem('callboard.softphone') ?? '';
    expect(JSON.parse(kept)).toEqual({ on: true });
    expect(kept).not.toContain('secret');

    await user.click(toggle);
    expect(FakeUA.made[0]?.stopped).toBe(true);
    expect(screen.queryByRole('region', { name: 'Browser phone' })).not.toBeInTheDocument();
  });

  it('rings with the caller and what the journal knows of them; answered, the call has its timer, keypad, mute and hang-up', async () => {
    const user = userEvent.setup();
    const ua = await readyDock();
    const session = new FakeSession({ uri: { user: '15555550100' }, display_name: 'Globex Corp' });
    act(() => ua.ring(session));
    const call = await screen.findByRole('group', { name: 'Call' });
    expect(within(call).getByRole('heading')).toHaveTextContent(/^Incoming call from Globex Corp \(.*555.*0100\)$/);
    expect(await within(call).findByText(/^Gave up waiting at .+: not called back yet\.$/)).toBeInTheDocument();
    expect(within(await within(call).findByRole('list', { name: 'Their latest calls' })).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      expect.stringMatching(/ · inbound · missed$/),
    ]);

    await user.click(within(call).getByRole('button', { name: 'Answer' }));
    expect(session.answered).toHaveLength(1);
    act(() => session.emit('accepted', {}));
    expect(within(call).getByRole('heading')).toHaveTextContent(/^On a call with Globex Corp/);
    expect(call).toHaveTextContent(/Call time 0:0\d/);

    await user.click(within(call).getByRole('button', { name: 'Keypad' }));
    await user.click(within(within(call).getByRole('group', { name: 'Keypad' })).getByRole('button', { name: '5' }));
    expect(session.tones).toEqual(['5']);
    expect(call).toHaveTextContent('Sent: 5');

    await user.click(within(call).getByRole('button', { name: 'Mute' }));
    expect(within(call).getByRole('button', { name: 'Unmute' })).toBeInTheDocument();
    expect(call).toHaveTextContent('Your microphone is muted.');

    await user.click(within(call).getByRole('button', { name: 'Hang up' }));
    expect(session.terminated).toEqual([{}]);
  });

  it('says "Calling <number>…" for a click-to-call asked for here, answered by itself', async () => {
    const ua = await readyDock();
    notePlacedCall('15555550123');
    const leg = new FakeSession();
    act(() => ua.ring(leg, { 'callboard-remote': '15555550123' }));
    expect(await screen.findByRole('heading', { name: /^Calling .*555.*0123…$/ })).toBeInTheDocument();
    expect(leg.answered).toHaveLength(1);
    expect(screen.queryByRole('button', { name: 'Answer' })).not.toBeInTheDocument();
  });
});
