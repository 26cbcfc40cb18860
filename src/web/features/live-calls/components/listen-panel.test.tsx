import { screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CallRecord } from '../../../../contract/call-record.js';
import { callRecord } from '../../../test-support/call-record.js';
import { FakePeerConnection } from '../../../test-support/fake-peer-connection.js';
import { stubFetch, type RouteHandler } from '../../../test-support/fetch-stub.js';
import { renderWithApp } from '../../../test-support/render.js';
import type { Workspace } from '../../../lib/workspace.js';
import { useListen } from '../hooks/use-listen.js';
import { ListenPanel } from './listen-panel.js';
import { RowActions } from './row-actions.js';

const CALL = '/v1/accounts/:accountID/applications/:applicationID/providers/:providerID/calls/:callID';
const START = `POST ${CALL}/listen`;
const ANSWER = `PUT ${CALL}/listen/:listenID`;
const STOP = `DELETE ${CALL}/listen/:listenID`;

const workspace = (over: Partial<Workspace> = {}): Workspace => ({
  accountID: 'demo',
  accountName: 'Demo',
  applications: [{ id: 'support', name: 'Support' }],
  applicationID: 'support',
  providers: [
    { id: 'pbx-main', name: 'Main PBX', type: 'kamailio', canEndCalls: false, canListen: true, softphone: true },
    { id: 'trunk', name: 'Trunk', type: 'twilio', canEndCalls: true, canListen: false, softphone: false },
  ],
  provider: 'all',
  scopes: [],
  permissions: ['calls:read', 'calls:control'],
  ...over,
});

const talking = callRecord('c-1', {
  answeredAt: new Date().toISOString(),
  remoteName: 'Globex Corp',
  subscriberFirstName: 'Maya',
  subscriberLastName: 'Chen',
  subscriberExtension: '107',
});

const offer = { listenID: 'l-9', callID: 'c-1', sdp: 'v=0\r\n', iceServers: [] };

/** The rows' actions and the panel, as the live view wires them: `live` is what the live list holds now. */
const Floor = ({ ws, calls, live = calls }: { ws: Workspace; calls: CallRecord[]; live?: CallRecord[] }) => {
  const listening = useListen(ws);
  return (
    <>
      <ul>
        {calls.map((call) => (
          <li key={call.callID} aria-label={call.callID}>
            <RowActions call={call} country="US" onCallBack={() => undefined} listen={listening.offer} />
          </li>
        ))}
      </ul>
      {listening.asking ? (
        <ListenPanel
          call={listening.asking.call}
          live={live.find((call) => call.callID === listening.asking?.call.callID)}
          scope={listening.asking.scope}
          onClose={listening.close}
        />
      ) : null}
    </>
  );
};

/** The service's listen routes; each request is noted as "METHOD callID/listenID". */
const stubListen = (start: RouteHandler = () => Response.json(offer)) => {
  const asked: string[] = [];
  const note = (method: string, params: Record<string, string>) => asked.push(`${method} ${params.callID}${params.listenID ? `/${params.listenID}` : ''}`);
  stubFetch({
    [START]: (request) => (note('POST', request.params), start(request)),
    [ANSWER]: ({ params, init }) => {
      note('PUT', params);
      expect(JSON.parse(String(init?.body))).toEqual({ sdp: expect.stringMatching(/^v=0/) });
      return new Response(null, { status: 204 });
    },
    [STOP]: ({ params }) => (note('DELETE', params), new Response(null, { status: 204 })),
  });
  return asked;
};

beforeEach(() => vi.stubGlobal('RTCPeerConnection', FakePeerConnection));
afterEach(() => {
  vi.unstubAllGlobals();
  FakePeerConnection.reset();
});

describe('listening to a call', () => {
  it('offers "Listen" only on answered live calls of providers that can, and only with calls:control', () => {
    const calls = [
      talking,
      callRecord('ringing'),
      callRecord('ended', { answeredAt: talking.answeredAt, endedAt: new Date().toISOString() }),
      callRecord('on-trunk', { providerID: 'trunk', answeredAt: talking.answeredAt }),
    ];
    const { unmount } = renderWithApp(<Floor ws={workspace()} calls={calls} />);
    expect(within(screen.getByRole('listitem', { name: 'c-1' })).getByRole('button', { name: 'Listen to the call with Globex Corp' })).toBeInTheDocument();
    for (const name of ['ringing', 'ended', 'on-trunk'])
      expect(within(screen.getByRole('listitem', { name })).queryByRole('button', { name: /^Listen/ })).not.toBeInTheDocument();
    unmount();
    renderWithApp(<Floor ws={workspace({ permissions: ['calls:read', 'calls:write'] })} calls={calls} />);
    expect(screen.queryByRole('button', { name: /^Listen/ })).not.toBeInTheDocument();
  });

  it('answers the offer, says it listens, and on Stop takes the listener down and gives the focus back', async () => {
    const user = userEvent.setup();
    const asked = stubListen();
    renderWithApp(<Floor ws={workspace()} calls={[talking]} />);
    const action = screen.getByRole('button', { name: 'Listen to the call with Globex Corp' });
    await user.click(action);
    const panel = screen.getByRole('dialog', { name: /^Listening to Globex Corp \(.+\)$/ });
    expect(panel).toHaveTextContent('With Maya Chen (ext. 107).');
    expect(within(panel).getByRole('button', { name: 'Stop listening' })).toHaveFocus();
    await expect.poll(() => panel.textContent).toMatch(/Listening: you hear both parties, and they do not hear you\./);
    expect(asked).toEqual(['POST c-1', 'PUT c-1/l-9']);
    expect(FakePeerConnection.made[0]?.remoteDescription).toEqual({ type: 'offer', sdp: offer.sdp });

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await expect.poll(() => asked).toEqual(['POST c-1', 'PUT c-1/l-9', 'DELETE c-1/l-9']);
    expect(FakePeerConnection.made[0]?.closed).toBe(true);
    expect(action).toHaveFocus();
  });

  it("shows the service's words when another supervisor listens already", async () => {
    const user = userEvent.setup();
    stubListen(() =>
      Response.json(
        { type: 'urn:callboard:problem:listener_limit', title: 'Listener limit', status: 409, code: 'listener_limit', detail: 'Grace Hopper is listening to this call already.' },
        { status: 409, headers: { 'content-type': 'application/problem+json' } },
      ),
    );
    renderWithApp(<Floor ws={workspace()} calls={[talking]} />);
    await user.click(screen.getByRole('button', { name: 'Listen to the call with Globex Corp' }));
    const panel = screen.getByRole('dialog');
    await expect.poll(() => panel.textContent).toMatch('Not listening. Grace Hopper is listening to this call already.');
    expect(within(panel).getByRole('button', { name: 'Close' })).toBeInTheDocument();
  });

  it('stops when the call ends, and when the panel goes', async () => {
    const user = userEvent.setup();
    const asked = stubListen();
    const { rerender } = renderWithApp(<Floor ws={workspace()} calls={[talking]} />);
    await user.click(screen.getByRole('button', { name: 'Listen to the call with Globex Corp' }));
    await expect.poll(() => asked).toEqual(['POST c-1', 'PUT c-1/l-9']);
    rerender(<Floor ws={workspace()} calls={[talking]} live={[{ ...talking, endedAt: new Date().toISOString() }]} />);
    await expect.poll(() => asked).toContain('DELETE c-1/l-9');
    expect(screen.getByRole('dialog')).toHaveTextContent('The call ended; listening stopped.');

    const again = stubListen();
    const { unmount } = renderWithApp(<Floor ws={workspace()} calls={[talking]} />);
    await user.click(screen.getAllByRole('button', { name: 'Listen to the call with Globex Corp' }).at(-1) as HTMLElement);
    await expect.poll(() => again).toEqual(['POST c-1', 'PUT c-1/l-9']);
    unmount();
    await expect.poll(() => again).toEqual(['POST c-1', 'PUT c-1/l-9', 'DELETE c-1/l-9']);
  });
});
