import { screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { useLocation } from 'react-router';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import type { CallRecord } from '../../../../contract/call-record.js';
import { parseStoredSamples, samplesKeyForScopes } from '../../../lib/concurrency-samples.js';
import { stubFetch } from '../../../test-support/fetch-stub.js';
import { renderWithApp } from '../../../test-support/render.js';
import { LiveConcurrencyChart } from './live-concurrency-chart.js';

// The drawing needs a real layout engine; what it is given is what these tests check.
vi.mock('./concurrency-area-chart.js', () => ({
  ConcurrencyAreaChart: ({ points }: { points: unknown[] }) => <p>{points.length} points drawn</p>,
}));

const call = (callID: string, isOutbound: boolean, ended = false): CallRecord => ({
  callID,
  providerCallID: `sip-${callID}`,
  providerID: 'pbx-main',
  providerName: 'Main PBX',
  isOutbound,
  isMissedCall: false,
  remoteNumber: '15555550100',
  startedAt: new Date(Date.now() - 60_000).toISOString(),
  ...(ended ? { endedAt: new Date().toISOString() } : {}),
});

const Search = () => <output aria-label="search">{useLocation().search}</output>;

let keys = 0;
const renderChart = (url = '/?tz=UTC') => {
  const scopes = [{ accountID: 'chart-test', applicationID: 'support', providerID: `p${++keys}` }];
  const storageKey = samplesKeyForScopes(scopes);
  const props = { scopes, timeZone: 'UTC' };
  const chart = (calls: CallRecord[], receivedAt: number) => (
    <>
      <LiveConcurrencyChart calls={calls} receivedAt={receivedAt} {...props} />
      <Search />
    </>
  );
  const view = renderWithApp(chart([], 0), { url });
  const update = (calls: CallRecord[], receivedAt: number) => view.rerender(chart(calls, receivedAt));
  return { storageKey, update };
};

describe('LiveConcurrencyChart', () => {
  it('takes one sample per poll and keeps it in localStorage', () => {
    const { storageKey, update } = renderChart();
    screen.getByText(/No samples yet/);

    const calls = [call('a', false), call('b', false), call('c', true), call('d', true, true)];
    const first = Date.now() - 2000;
    update(calls, first);
    screen.getByText('Now 3 (2 in, 1 out) · Peak 3 at ' + new Date(first).toISOString().slice(11, 16));
    update([...calls], first);
    update(calls.slice(1), first + 2000);

    expect(
      screen.getByRole('figure', { name: /Chart of concurrent live calls, last 15 minutes\. Now 2 \(1 in, 1 out\) · Peak 3/ }),
    ).toBeInTheDocument();
    const stored = parseStoredSamples(localStorage.getItem(`callboard.concurrency.${storageKey}`), Date.now());
    expect(stored.map((s) => [s.inbound, s.outbound])).toEqual([
      [2, 1],
      [1, 1],
    ]);
  });

  it('takes no sample before the first poll has answered', () => {
    const { storageKey } = renderChart();
    expect(localStorage.getItem(`callboard.concurrency.${storageKey}`)).toBeNull();
  });

  it('switches between 15 and 60 minutes with pressed buttons kept in the URL', async () => {
    renderChart('/?tz=UTC&provider=pbx-main');
    const range = screen.getByRole('group', { name: 'Time range' });
    expect(within(range).getByRole('button', { name: '15 min' })).toHaveAttribute('aria-pressed', 'true');
    expect(within(range).getByRole('button', { name: '60 min' })).toHaveAttribute('aria-pressed', 'false');

    await userEvent.click(within(range).getByRole('button', { name: '60 min' }));

    expect(within(range).getByRole('button', { name: '60 min' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('status', { name: 'search' })).toHaveTextContent('?tz=UTC&provider=pbx-main&range=60');
    expect(screen.getByRole('figure', { name: /last 60 minutes/ })).toBeInTheDocument();
  });

  it("opens the range as a table of each minute's busiest moment", async () => {
    const { update } = renderChart();
    const at = Date.now() - 1000;
    update([call('a', false), call('b', true)], at);

    await userEvent.click(screen.getByRole('button', { name: 'Show data table' }));

    const table = screen.getByRole('table', { name: /Busiest moment of each minute, last 15 minutes/ });
    const minute = new Date(Math.floor(at / 60_000) * 60_000).toISOString().slice(11, 16);
    expect(within(table).getByRole('row', { name: `${minute} 2 1 1` })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Hide data table' })).toHaveAttribute('aria-expanded', 'true');
  });

  it('names both series and the peak in its legend', () => {
    renderChart();
    const legend = screen.getByRole('list', { name: 'Legend' });
    expect(
      within(legend)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Inbound', 'Outbound', 'Peak']);
  });

  // Early in the day it fits one answer; later the day before the last hour is asked apart.
  it.each(['06:10:30', '14:03:27'])("opens at %s with the journal's last hour already drawn, and keeps its own samples where it has them", async (time) => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(`2026-11-23T${time}Z`));
    onTestFinished(() => {
      vi.useRealTimers();
    });
    const asked: URLSearchParams[] = [];
    const minute = 60_000;
    const thisMinute = Math.floor(Date.now() / minute) * minute;
    stubFetch({
      'GET /v1/accounts/:accountID/applications/:applicationID/provider/:providerID/concurrency': ({ url }) => {
        asked.push(url.searchParams);
        const from = Date.parse(url.searchParams.get('fromDate') ?? '');
        // As the service answers: only the window asked for (the day's early part and the last hour are asked apart).
        const to = Math.min(thisMinute, Date.parse(url.searchParams.get('toDate') ?? '') - 1);
        const buckets = [];
        for (let start = Math.ceil(from / minute) * minute; start <= to; start += minute) {
          // Twelve minutes ago the busiest moment: 7 in, 2 out.
          const busy = start === thisMinute - 12 * minute;
          buckets.push({
            start: new Date(start).toISOString(),
            peak: busy ? 9 : 3,
            average: 2,
            peakInbound: busy ? 7 : 2,
            peakOutbound: busy ? 2 : 1,
            started: 1,
            missed: 0,
          });
        }
        return Response.json({
          fromDate: url.searchParams.get('fromDate'),
          toDate: url.searchParams.get('toDate'),
          bucketSeconds: 60,
          buckets,
        });
      },
    });
    const { storageKey, update } = renderChart();
    update([call('a', false)], Date.now());

    const busiest = new Date(thisMinute - 12 * minute).toISOString().slice(11, 16);
    expect(
      await screen.findByRole('figure', { name: new RegExp(`Now 1 \\(1 in, 0 out\\) · Peak 9 at ${busiest}`) }),
    ).toBeInTheDocument();
    // The last hour minute by minute (after 08:20 the day before it is asked apart, in coarser buckets).
    const lastHour = asked.find((params) => Date.parse(params.get('toDate') ?? '') > thisMinute);
    expect(lastHour?.get('bucketSeconds')).toBe('60');
    expect(asked.map((params) => params.get('bucketSeconds'))).toEqual(time < '08:20' ? ['60'] : ['120', '60']);
    const stored = parseStoredSamples(localStorage.getItem(`callboard.concurrency.${storageKey}`), Date.now());
    // The journal's minutes, except the one this page sampled itself.
    expect(stored.filter((sample) => sample.at >= thisMinute)).toEqual([expect.objectContaining({ inbound: 1, outbound: 0 })]);
    expect(stored.length).toBeGreaterThan(60);
  });
});
