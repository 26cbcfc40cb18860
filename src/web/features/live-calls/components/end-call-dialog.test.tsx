import { screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import type { CallRecord } from '../../../../contract/call-record.js';
import { callRecord } from '../../../test-support/call-record.js';
import { stubFetch } from '../../../test-support/fetch-stub.js';
import { renderWithApp } from '../../../test-support/render.js';
import type { Workspace } from '../../../lib/workspace.js';
import { useEndCall } from '../hooks/use-end-call.js';
import { EndCallDialog } from './end-call-dialog.js';
import { RowActions } from './row-actions.js';

const ROUTE = 'DELETE /v1/accounts/:accountID/applications/:applicationID/providers/:providerID/calls/:callID';

const workspace = (over: Partial<Workspace> = {}): Workspace => ({
  accountID: 'demo',
  accountName: 'Demo',
  applications: [{ id: 'support', name: 'Support' }],
  applicationID: 'support',
  providers: [
    { id: 'pbx-main', name: 'Main PBX', type: 'simulator', canEndCalls: true, canListen: false, softphone: false },
    { id: 'trunk', name: 'Trunk', type: 'twilio', canEndCalls: false, canListen: false, softphone: false },
  ],
  provider: 'all',
  scopes: [],
  permissions: ['calls:read', 'calls:control'],
  ...over,
});

const talking = callRecord('c-1', {
  answeredAt: new Date().toISOString(),
  remoteName: 'Globex Corp',
  subscriberID: 'agt-7',
  subscriberFirstName: 'Maya',
  subscriberLastName: 'Chen',
  subscriberExtension: '107',
});

/** The rows' actions and the dialog, as the live view wires them. */
const Floor = ({ ws, calls }: { ws: Workspace; calls: CallRecord[] }) => {
  const ending = useEndCall(ws);
  const [, setCallBack] = useState<unknown>();
  return (
    <>
      <ul>
        {calls.map((call) => (
          <li key={call.callID} aria-label={call.callID}>
            <RowActions call={call} country="US" onCallBack={setCallBack} endCall={ending.offer} />
          </li>
        ))}
      </ul>
      {ending.asking ? <EndCallDialog call={ending.asking.call} scope={ending.asking.scope} onClose={ending.close} /> : null}
    </>
  );
};

describe('ending a call from the call list', () => {
  it('offers "End call" only on live calls of providers that can end them, and only to a token with calls:control', () => {
    const calls = [talking, callRecord('ended', { endedAt: new Date().toISOString() }), callRecord('on-trunk', { providerID: 'trunk' })];
    const { unmount } = renderWithApp(<Floor ws={workspace()} calls={calls} />);
    expect(within(screen.getByRole('listitem', { name: 'c-1' })).getByRole('button', { name: /^End call/ })).toBeInTheDocument();
    expect(within(screen.getByRole('listitem', { name: 'ended' })).queryByRole('button', { name: /^End call/ })).not.toBeInTheDocument();
    expect(within(screen.getByRole('listitem', { name: 'on-trunk' })).queryByRole('button', { name: /^End call/ })).not.toBeInTheDocument();
    unmount();
    renderWithApp(<Floor ws={workspace({ permissions: ['calls:read', 'calls:write'] })} calls={calls} />);
    expect(screen.queryByRole('button', { name: /^End call/ })).not.toBeInTheDocument();
  });

  it('asks first, naming both parties; "Keep call" leaves it and gives the focus back', async () => {
    const user = userEvent.setup();
    renderWithApp(<Floor ws={workspace()} calls={[talking]} />);
    const action = screen.getByRole('button', { name: 'End call with Globex Corp' });
    await user.click(action);
    const dialog = screen.getByRole('alertdialog', { name: 'End this call?' });
    expect(dialog).toHaveAccessibleDescription(/Both phones hang up: the caller, Globex Corp \(.+\), and the agent, Maya Chen \(ext\. 107\)\./);
    expect(within(dialog).getByRole('button', { name: 'Keep call' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(action).toHaveFocus();
  });

  it('ends it on confirmation, at the call’s own address, and says so', async () => {
    const user = userEvent.setup();
    const asked: Record<string, string>[] = [];
    stubFetch({ [ROUTE]: ({ params }) => (asked.push(params), new Response(null, { status: 204 })) });
    renderWithApp(<Floor ws={workspace()} calls={[talking]} />);
    await user.click(screen.getByRole('button', { name: 'End call with Globex Corp' }));
    await user.click(screen.getByRole('button', { name: 'End call' }));
    await expect.poll(() => screen.queryByRole('alertdialog')).toBeNull();
    expect(asked).toEqual([{ accountID: 'demo', applicationID: 'support', providerID: 'pbx-main', callID: 'c-1' }]);
    await expect.poll(() => document.body.textContent).toMatch(/Call with Globex Corp \(.+\) ended./);
  });

  it('keeps the dialog open with the provider’s reason when it will not end the call', async () => {
    const user = userEvent.setup();
    stubFetch({
      [ROUTE]: () =>
        Response.json(
          { type: 'urn:callboard:problem:call_not_endable', title: 'x', status: 409, code: 'call_not_endable', detail: 'Kamailio ends a call once it is answered.' },
          { status: 409, headers: { 'content-type': 'application/problem+json' } },
        ),
    });
    renderWithApp(<Floor ws={workspace()} calls={[talking]} />);
    await user.click(screen.getByRole('button', { name: 'End call with Globex Corp' }));
    await user.click(screen.getByRole('button', { name: 'End call' }));
    expect(await within(screen.getByRole('alertdialog')).findByRole('alert')).toHaveTextContent('Kamailio ends a call once it is answered.');
  });
});
