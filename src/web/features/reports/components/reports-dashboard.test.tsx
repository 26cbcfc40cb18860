import { screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { stubFetch } from '../../../test-support/fetch-stub.js';
import { renderWithApp } from '../../../test-support/render.js';
import { agentReport, agentTime, intervalReport, intervalRow } from '../../../test-support/reports.js';
import { MOST_AGENT_BARS } from './agent-time-panel.js';
import { ReportsDashboard } from './reports-dashboard.js';

const scope = { accountID: 'demo', applicationID: 'support', providerID: 'pbx-main' };
const request = { window: { from: Date.parse('2026-11-26T00:00:00Z'), to: Date.parse('2026-11-27T00:00:00Z') }, queueParam: '' };
const props = {
  scope,
  request,
  intervalMinutes: 60 as const,
  days: { fromDay: '2026-11-26', toDay: '2026-11-26' },
  timeZone: 'UTC',
  canExport: true,
};
const BASE = '/v1/accounts/:accountID/applications/:applicationID/provider/:providerID/reports';

const quietDay = intervalReport({
  intervalMinutes: 60,
  rows: [
    intervalRow({ start: '2026-11-26T00:00:00.000Z', queueID: 'sales' }),
    intervalRow({ start: '2026-11-26T00:00:00.000Z', queueID: null }),
  ],
});

describe('ReportsDashboard', () => {
  it("says while the reports load, then shows the service's problem in the panels it stops", async () => {
    let answer: (response: Response) => void = () => undefined;
    stubFetch({
      [`GET ${BASE}/intervals`]: () => new Promise<Response>((resolve) => (answer = resolve)),
      [`GET ${BASE}/agents`]: () =>
        Response.json(
          {
            type: 'urn:callboard:problem:validation_failed',
            title: 'Bad Request',
            status: 400,
            detail: 'fromDate: a report covers at most 31 days',
            code: 'validation_failed',
          },
          { status: 400, headers: { 'content-type': 'application/problem+json' } },
        ),
    });
    renderWithApp(<ReportsDashboard {...props} />);
    const level = screen.getByRole('region', { name: 'Service level per interval' });
    expect(within(level).getByText('Loading…')).toBeInTheDocument();
    const agents = screen.getByRole('region', { name: "Agents' time" });
    expect(await within(agents).findByRole('alert')).toHaveTextContent('fromDate: a report covers at most 31 days');
    answer(Response.json(quietDay));
    expect(await screen.findByText('No call was offered to these queues in this range.')).toHaveAttribute('role', 'status');
    expect(screen.getByText('Sales: no calls.')).toBeInTheDocument();
  });

  it('asks for the range, interval and queues; draws the longest logged-in agents and lists every one, a page at a time', async () => {
    const many = Array.from({ length: 130 }, (_, i) =>
      agentTime({
        subscriberID: `agt-${i}`,
        firstName: 'Agent',
        lastName: String(i).padStart(3, '0'),
        extension: String(200 + i),
        availableSeconds: i * 60,
        offlineSeconds: 86_400 - i * 60,
      }),
    );
    const asked: URL[] = [];
    stubFetch({
      [`GET ${BASE}/intervals`]: ({ url }) => (asked.push(url), Response.json(quietDay)),
      [`GET ${BASE}/agents`]: ({ url }) => (asked.push(url), Response.json(agentReport(many))),
    });
    const user = userEvent.setup();
    renderWithApp(<ReportsDashboard {...props} request={{ ...request, queueParam: 'sales,none' }} />);
    // The panel takes the place of its loading frame once the report is in.
    expect(
      await screen.findByText(`130 agents: the ${MOST_AGENT_BARS} longest logged in are drawn, and the table lists every one.`),
    ).toBeInTheDocument();
    const panel = screen.getByRole('region', { name: "Agents' time" });
    expect(Object.fromEntries(asked[0]!.searchParams)).toEqual({
      fromDate: '2026-11-26T00:00:00.000Z',
      toDate: '2026-11-27T00:00:00.000Z',
      queueID: 'sales,none',
      intervalMinutes: '60',
    });
    expect(Object.fromEntries(asked[1]!.searchParams)).toEqual({
      fromDate: '2026-11-26T00:00:00.000Z',
      toDate: '2026-11-27T00:00:00.000Z',
      queueID: 'sales,none',
    });
    // Legend: each state named beside its swatch, so colour is never the only sign.
    expect(
      within(within(panel).getByRole('list', { name: 'Legend' }))
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['On a call', 'Ringing', 'Available', 'Inactive', 'Offline', 'Unknown']);
    const table = within(panel).getByRole('table', { name: /Each agent's time by state/ });
    const first = within(table).getAllByRole('row')[1]!;
    expect([...first.children].map((cell) => cell.textContent)).toEqual([
      'Agent 129 (329)',
      '2:09:00',
      '0:00',
      '0:00',
      '2:09:00',
      '0:00',
      '21:51:00',
      '0:00',
      '0',
      '0',
      '0',
      '0:00',
      '—',
      '—',
    ]);
    expect(within(table).getAllByRole('row')).toHaveLength(101);
    await user.click(within(panel).getByRole('button', { name: 'Next rows' }));
    expect(within(panel).getByText('Rows 101–130 of 130')).toBeInTheDocument();
    expect(within(table).getAllByRole('row').at(-1)).toHaveTextContent('Agent 000 (200)');
  });

  it('offers "Export all calls" only to a connection that may export', async () => {
    stubFetch({
      [`GET ${BASE}/intervals`]: () => Response.json(quietDay),
      [`GET ${BASE}/agents`]: () => Response.json(agentReport([])),
    });
    const view = renderWithApp(<ReportsDashboard {...props} canExport={false} />);
    expect(await screen.findByText('No call was offered to these queues in this range.')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Export all calls' })).not.toBeInTheDocument();
    view.rerender(<ReportsDashboard {...props} />);
    expect(screen.getByRole('region', { name: 'Export all calls' })).toBeInTheDocument();
  });
});
