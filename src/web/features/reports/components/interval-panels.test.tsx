import { screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithApp } from '../../../test-support/render.js';
import { intervalReport, intervalRow } from '../../../test-support/reports.js';
import { ServiceLevelIntervalsPanel, StaffingPanel } from './interval-panels.js';

const report = intervalReport({
  fromDate: '2026-11-26T08:00:00.000Z',
  toDate: '2026-11-26T09:00:00.000Z',
  intervalMinutes: 30,
  rows: [
    intervalRow({
      start: '2026-11-26T08:00:00.000Z',
      queueID: 'sales',
      offered: 10,
      answered: 9,
      abandoned: 1,
      serviceLevel: 0.9,
      serviceLevelTarget: 0.8,
      agentsNeeded: 4,
      agentsStaffed: 2.96,
      averageAnswerSeconds: 12,
      longestWaitSeconds: 65,
    }),
    intervalRow({
      start: '2026-11-26T08:00:00.000Z',
      queueID: 'support',
      offered: 30,
      answered: 20,
      abandoned: 10,
      serviceLevel: 0.5,
      serviceLevelTarget: 0.9,
      agentsNeeded: 6,
      agentsStaffed: 7,
    }),
    intervalRow({ start: '2026-11-26T08:00:00.000Z', queueID: null, offered: 2, answered: 2, serviceLevel: 1 }),
    // Sales' target was raised at 08:30: that interval is drawn and listed against the new one.
    intervalRow({
      start: '2026-11-26T08:30:00.000Z',
      queueID: 'sales',
      offered: 8,
      answered: 8,
      serviceLevel: 0.75,
      serviceLevelTarget: 0.6,
      agentsNeeded: 3,
      agentsStaffed: 3,
    }),
    intervalRow({
      start: '2026-11-26T08:30:00.000Z',
      queueID: 'support',
      offered: 12,
      answered: 12,
      serviceLevel: 0.95,
      serviceLevelTarget: 0.9,
      agentsNeeded: null,
      agentsStaffed: 5,
    }),
    intervalRow({ start: '2026-11-26T08:30:00.000Z', queueID: null }),
  ],
});

/** The text of the CSV the page saved: `downloadCsv` hands a Blob to an object URL. */
const captureDownloads = () => {
  const blobs: Blob[] = [];
  Object.assign(URL, {
    createObjectURL: vi.fn((blob: Blob) => {
      blobs.push(blob);
      return `blob:${blobs.length}`;
    }),
    revokeObjectURL: vi.fn(),
  });
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
  return async () => (await blobs.at(-1)?.text())?.replace(/^\uFEFF/, '');
};

afterEach(() => vi.restoreAllMocks());

const rowTexts = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) => [...row.children].map((cell) => cell.textContent));

describe('ServiceLevelIntervalsPanel', () => {
  it('lists every interval of every queue with the target then in force, and says how often each queue met it', () => {
    renderWithApp(<ServiceLevelIntervalsPanel report={report} timeZone="UTC" />);
    const panel = screen.getByRole('region', { name: 'Service level per interval' });
    expect(
      within(panel).getByText(
        /Support: target met in 1 of 2 intervals with calls. Sales: target met in 2 of 2 intervals with calls./,
      ),
    ).toBeInTheDocument();
    const table = within(panel).getByRole('table', { name: /Service level per 30-minute interval and queue/ });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual([
      'Interval',
      'Queue',
      'Offered',
      'Answered',
      'Abandoned',
      'Service level',
      'Target',
      'Average answer',
      'Longest wait',
    ]);
    expect(rowTexts(table)).toEqual([
      ['2026-11-26 08:00–08:30', 'Sales', '10', '9', '1', '90 % in 20 s', '80 %', '0:12', '1:05'],
      ['2026-11-26 08:00–08:30', 'Support', '30', '20', '10', '50 % in 20 s', '90 %', '—', '0:00'],
      ['2026-11-26 08:00–08:30', 'No queue', '2', '2', '0', '100 % in 20 s', '—', '—', '0:00'],
      ['2026-11-26 08:30–09:00', 'Sales', '8', '8', '0', '75 % in 20 s', '60 %', '—', '0:00'],
      ['2026-11-26 08:30–09:00', 'Support', '12', '12', '0', '95 % in 20 s', '90 %', '—', '0:00'],
      ['2026-11-26 08:30–09:00', 'No queue', '0', '0', '0', '—', '—', '—', '0:00'],
    ]);
  });

  it("draws each queue's target from its rows, stepping where it changed, beside the queue's service level", async () => {
    const { container } = renderWithApp(<ServiceLevelIntervalsPanel report={report} timeZone="UTC" />);
    expect(
      screen.getByRole('figure', { name: /one line per queue, each queue's target in force drawn thin and dashed/ }),
    ).toBeInTheDocument();
    // Drawn busiest first: Support (index 0), Sales (index 1); each target a dashed step line of its own.
    const targets = await vi.waitFor(() => {
      const found = [...container.querySelectorAll('.recharts-line-curve')].filter(
        (path) => path.getAttribute('stroke-dasharray') === '6 4',
      );
      expect(found).toHaveLength(2);
      return found;
    });
    const heights = (path: Element) =>
      new Set([...(path.getAttribute('d') ?? '').matchAll(/[ML][\d.]+,([\d.]+)/g)].map((m) => Number(m[1]).toFixed(1)));
    expect(heights(targets[0]!).size).toBe(1);
    // Sales: 80 % then 60 %: two heights, the second lower on the chart.
    const sales = [...heights(targets[1]!)].map(Number);
    expect(sales).toHaveLength(2);
    expect(sales[1]).toBeGreaterThan(sales[0]!);
  });

  it('downloads every interval as CSV, figures as served and times in ISO 8601', async () => {
    const saved = captureDownloads();
    const user = userEvent.setup();
    renderWithApp(<ServiceLevelIntervalsPanel report={report} timeZone="Europe/Paris" />);
    await user.click(
      within(screen.getByRole('region', { name: 'Service level per interval' })).getByRole('button', { name: 'Download CSV' }),
    );
    const lines = (await saved())?.split('\r\n') ?? [];
    expect(lines[0]).toBe(
      'start,start (Europe/Paris),queueID,queue,answerWithinSeconds,shortAbandonSeconds,serviceLevelTarget,offered,answered,answeredWithin,shortAbandoned,abandoned,waiting,serviceLevel,abandonRate,averageAnswerSeconds,longestAnswerSeconds,averageTalkSeconds,outboundPlaced,outboundConnected,averageOutboundTalkSeconds,longestWaitSeconds,peakConcurrentCalls,agentsStaffed,agentsNeeded,answerTimes.within10,answerTimes.within20,answerTimes.within30,answerTimes.within60,answerTimes.within120,answerTimes.later',
    );
    expect(lines[1]).toBe(
      '2026-11-26T08:00:00.000Z,2026-11-26 09:00,sales,Sales,20,5,0.8,10,9,0,0,1,0,0.9,,12,,,0,0,,65,0,2.96,4,0,0,0,0,0,0',
    );
    expect(lines[3]).toBe('2026-11-26T08:00:00.000Z,2026-11-26 09:00,,No queue,20,5,,2,2,0,0,0,0,1,,,,,0,0,,0,0,,,0,0,0,0,0,0');
    expect(lines).toHaveLength(8);
    expect(lines[7]).toBe('');
  });
});

describe('StaffingPanel', () => {
  it('tells where fewer agents were staffed than needed, for all queues or the one chosen, in the address', async () => {
    const user = userEvent.setup();
    const { location } = renderWithApp(<StaffingPanel report={report} timeZone="UTC" />, { url: '/reports' });
    const panel = screen.getByRole('region', { name: 'Offered calls and staffing' });
    expect(
      within(panel).getByText(
        'Enough agents staffed in every interval with a known need (2 intervals). Summed over the queues, an agent in two queues counts in each.',
      ),
    ).toBeInTheDocument();
    await user.selectOptions(within(panel).getByRole('combobox', { name: 'Show' }), 'Sales');
    expect(new URLSearchParams(location().search).get('staffing')).toBe('sales');
    expect(
      within(panel).getByText('Fewer agents staffed than needed in 1 of 2 intervals; the most, 1 short, from 26 Nov, 08:00:00.'),
    ).toBeInTheDocument();
    const table = within(panel).getByRole('table', { name: /Offered calls, agents needed and agents staffed/ });
    expect(rowTexts(table)).toEqual([
      ['2026-11-26 08:00–08:30', 'Sales', '10', '4', '3', '1 short', '0', '1:05'],
      ['2026-11-26 08:30–09:00', 'Sales', '8', '3', '3', '—', '0', '0:00'],
    ]);
  });
});
