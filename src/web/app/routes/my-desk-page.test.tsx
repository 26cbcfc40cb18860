import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Agent } from '../../../contract/agents.js';
import { totalsOf } from '../../../contract/agents.js';
import type { CallRecord } from '../../../contract/call-record.js';
import type { MissedCall } from '../../../contract/service-levels.js';
import type { Connection } from '../../lib/connection.js';
import { agent } from '../../test-support/agents.js';
import { callRecord } from '../../test-support/call-record.js';
import { stubFetch } from '../../test-support/fetch-stub.js';
import { renderWithApp, testSession, TEST_CONNECTION } from '../../test-support/render.js';
import { missedCallsAnswer } from '../../test-support/service-levels.js';
import { MyDeskPage } from './my-desk-page.js';

const PROVIDER = '/v1/accounts/:accountID/applications/:applicationID/provider/:providerID';
const NOW = Date.now();
const at = (msAgo: number) => new Date(NOW - msAgo).toISOString();
const HOUR = 3_600_000;
/** Where the service says today began. */
const DAY_START = at(3 * HOUR);

const me = {
  account: { id: 'demo', name: 'Demo' },
  applications: [{ id: 'support', name: 'Support desk', providers: [{ id: 'pbx-main', name: 'Main PBX', type: 'simulator', canEndCalls: true, canListen: false, softphone: false }] }],
  permissions: ['calls:read', 'calls:write'],
  person: { subject: 'sub-maya', email: 'maya@example.com', name: 'Maya Chen' },
  roles: ['agent'],
  subscriberIDs: ['agt-0001'],
};

const maya = agent('agt-0001', {
  firstName: 'Maya',
  lastName: 'Chen',
  extension: '104',
  state: 'on-call',
  since: at(90_000),
  callID: 'live-1',
  remoteNumber: '15550100007',
  remoteName: 'Acme Corp',
  callsToday: 4,
  missedToday: 1,
  talkSecondsToday: 754,
});

const mine = (callID: string, over: Partial<CallRecord> = {}) => callRecord(callID, { subscriberID: 'agt-0001', subscriberFirstName: 'Maya', ...over });

interface Desk {
  agents?: Agent[];
  live?: CallRecord[];
  today?: CallRecord[];
  missed?: MissedCall[];
  meAnswer?: object;
}

/** The service as an agent's session sees it: their own line, calls and callers. */
const serve = ({ agents = [maya], live = [], today = [], missed = [], meAnswer = me }: Desk = {}) => {
  const windows: URL[] = [];
  stubFetch({
    'GET /v1/me': () => Response.json(meAnswer),
    [`GET ${PROVIDER}/agents`]: () => Response.json({ agents, totals: totalsOf(agents), dayStart: DAY_START, figuresAt: at(0) }),
    [`GET ${PROVIDER}/calls`]: ({ url }) => {
      if (!url.searchParams.has('fromDate')) return Response.json({ calls: live, totalCalls: live.length });
      windows.push(url);
      return Response.json({ calls: today, totalCalls: today.length });
    },
    [`GET ${PROVIDER}/missed-calls`]: ({ url }) => Response.json(missedCallsAnswer(url, missed)),
    'GET /v1/accounts/:accountID/applications/:applicationID/providers/:providerID/subscribers': () =>
      Response.json({
        subscribers: [
          { providerSubscriberID: 'agt-0001', firstName: 'Maya', lastName: 'Chen', email: 'maya@example.com', extension: '104', number: '1555000104', registered: true, active: true },
        ],
      }),
  });
  return windows;
};

const renderDesk = (connection: Connection = testSession({ roles: ['agent'], person: me.person })) =>
  renderWithApp(
    <Routes>
      <Route path="/desk" element={<MyDeskPage />} />
      <Route path="/" element={<p>The live view</p>} />
    </Routes>,
    { url: '/desk?tz=UTC&country=US', connection },
  );

beforeEach(() => {
  vi.stubGlobal('matchMedia', () => ({ matches: false, addEventListener: () => undefined, removeEventListener: () => undefined }));
});

afterEach(() => {
  // Unmounted before matchMedia goes: the page reads it while it is on screen.
  cleanup();
  vi.unstubAllGlobals();
});

describe('MyDeskPage', () => {
  it("shows an agent their state and today's figures, their calls of the day, their callers to call back, and click-to-call as themselves", async () => {
    const windows = serve({
      live: [mine('live-1', { remoteNumber: '15550100007', remoteName: 'Acme Corp', startedAt: at(120_000), answeredAt: at(90_000) })],
      today: [
        mine('earlier', { remoteNumber: '15550100008', startedAt: at(2 * HOUR), answeredAt: at(2 * HOUR - 5000), endedAt: at(2 * HOUR - 65_000) }),
        // Yesterday's, and a colleague's: neither is this agent's day.
        mine('yesterday', { startedAt: at(5 * HOUR), endedAt: at(5 * HOUR - 60_000) }),
        callRecord('colleague', { subscriberID: 'agt-0002', startedAt: at(HOUR), endedAt: at(HOUR - 60_000) }),
      ],
      missed: [{ callID: 'gave-up', remoteNumber: '15550100009', startedAt: at(HOUR), endedAt: at(HOUR - 30_000), subscriberID: 'agt-0001', attempts: 0 }],
    });
    renderDesk();

    expect(await screen.findByRole('heading', { level: 1, name: 'My desk' })).toBeInTheDocument();
    const state = screen.getByRole('region', { name: 'My state' });
    await waitFor(() => expect(state).toHaveTextContent('On a call'));
    expect(state).toHaveTextContent('Maya Chen · ext. 104');
    expect(state).toHaveTextContent('Acme Corp');
    expect(within(state).getByText('Calls today').nextSibling).toHaveTextContent('4');
    expect(within(state).getByText('Missed today').nextSibling).toHaveTextContent('1');
    expect(within(state).getByText('Talk time today').nextSibling).toHaveTextContent('12:34');

    const calls = screen.getByRole('region', { name: 'My calls today' });
    await waitFor(() => expect(within(calls).getAllByRole('row')).toHaveLength(3));
    expect(calls).toHaveTextContent('Showing all 2 calls');
    expect(calls).toHaveTextContent('(555) 010-0008');
    expect(calls).not.toHaveTextContent('agt-0002');
    expect(windows[0]?.searchParams.get('fromDate')).toBe(DAY_START);

    const callBack = screen.getByRole('region', { name: 'To call back' });
    expect(await within(callBack).findByRole('button', { name: 'Call back +1 (555) 010-0009' })).toBeInTheDocument();

    const place = screen.getByRole('region', { name: 'Place a call' });
    const caller = within(place).getByRole('group', { name: 'You place calls as' });
    await waitFor(() => expect(caller).toHaveTextContent('Maya Chen'));
    expect(caller).toHaveAccessibleDescription(/You place calls only as Maya Chen/);
    expect(within(place).queryByRole('combobox', { name: /Subscriber/ })).not.toBeInTheDocument();
  });

  it('says what an empty day means', async () => {
    serve();
    renderDesk();
    const calls = await screen.findByRole('region', { name: 'My calls today' });
    expect(await within(calls).findByText('No calls yet today')).toBeInTheDocument();
    expect(await within(screen.getByRole('region', { name: 'To call back' })).findByText('Nobody to call back.')).toBeInTheDocument();
  });

  it('shows only their own line where the board holds others (a person who also supervises)', async () => {
    serve({
      agents: [agent('agt-0002', { firstName: 'Omar' }), maya],
      meAnswer: { ...me, roles: ['supervisor', 'agent'] },
    });
    renderDesk(testSession({ roles: ['supervisor', 'agent'] }));
    const state = await screen.findByRole('region', { name: 'My state' });
    await waitFor(() => expect(within(state).getAllByRole('listitem')).toHaveLength(1));
    expect(state).toHaveTextContent('Maya Chen');
    expect(state).not.toHaveTextContent('Omar');
  });

  it('tells a connection without a phone line of its own that the desk is an agent’s page', async () => {
    stubFetch({ 'GET /v1/me': () => Response.json({ ...me, person: undefined, roles: undefined, subscriberIDs: undefined }) });
    renderDesk(TEST_CONNECTION);
    expect(await screen.findByText("My desk is an agent's page")).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to the live view' })).toHaveAttribute('href', '/?tz=UTC&country=US');
  });
});
