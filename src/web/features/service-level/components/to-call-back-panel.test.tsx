import { screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { CallRecord } from '../../../../contract/call-record.js';
import { callRecord } from '../../../test-support/call-record.js';
import { stubFetch } from '../../../test-support/fetch-stub.js';
import { renderWithApp } from '../../../test-support/render.js';
import { missedCallsAnswer } from '../../../test-support/service-levels.js';
import { ToCallBackPanel } from './to-call-back-panel.js';

const MISSED_CALLS = 'GET /v1/accounts/:accountID/applications/:applicationID/provider/:providerID/missed-calls';
const scopes = [{ accountID: 'demo', applicationID: 'support', providerID: 'pbx-main' }];
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

const callers = () => screen.getByRole('list', { name: 'Callers to call back' });

describe('ToCallBackPanel', () => {
  it('lists who gave up and was not reached, oldest first, and follows the live calls: a new caller at once, one reached leaves', async () => {
    stubFetch({
      [MISSED_CALLS]: ({ url }) =>
        Response.json(
          missedCallsAnswer(url, [
            { callID: 'newer', remoteNumber: '15550100002', startedAt: ago(10 * 60_000), endedAt: ago(9 * 60_000), attempts: 0 },
            { callID: 'older', remoteNumber: '15550100001', remoteName: 'Acme Corp', startedAt: ago(40 * 60_000), endedAt: ago(39 * 60_000), attempts: 2 },
          ]),
        ),
    });
    const user = userEvent.setup();
    const view = renderWithApp(<ToCallBackPanel calls={[]} scopes={scopes} />, { url: '/?tz=UTC&country=US' });
    await waitFor(() => expect(within(callers()).getAllByRole('listitem')).toHaveLength(2));
    const [first, second] = within(callers()).getAllByRole('listitem');
    expect(first).toHaveTextContent('+1 (555) 010-0001');
    expect(first).toHaveTextContent('Acme Corp');
    expect(first).toHaveTextContent('Gave up 40 min ago · called back 2 times, not reached');
    expect(second).toHaveTextContent('not called back yet');

    // A caller gives up now; the callback to the older one is answered.
    const live: CallRecord[] = [
      callRecord('gave-up', { remoteNumber: '15550100003', startedAt: ago(40_000), endedAt: ago(1000), isMissedCall: true }),
      callRecord('callback', { isOutbound: true, remoteNumber: '15550100001', startedAt: ago(20_000), answeredAt: ago(10_000) }),
    ];
    view.rerender(<ToCallBackPanel calls={live} scopes={scopes} />);
    expect(within(callers()).getAllByRole('listitem').map((item) => item.textContent?.slice(0, 17))).toEqual(['+1 (555) 010-0002', '+1 (555) 010-0003']);
    expect(screen.getByRole('region', { name: 'To call back' })).toHaveTextContent(/^To call back2/);

    await user.click(screen.getByRole('button', { name: 'Call back +1 (555) 010-0003' }));
    expect(view.location().search).toContain('dial=15550100003');
  });
});
