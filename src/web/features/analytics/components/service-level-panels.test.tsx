import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { stubFetch } from '../../../test-support/fetch-stub.js';
import { renderWithApp } from '../../../test-support/render.js';
import { figures } from '../../../test-support/service-levels.js';
import { serviceLevelBucketsToCsv } from '../utils/analytics-csv.js';
import { ServiceLevelPanels } from './service-level-panels.js';

const scope = { accountID: 'demo', applicationID: 'support', providerID: 'pbx-main' };
const FROM = Date.parse('2026-11-26T08:00:00Z');
const window = { from: FROM, to: FROM + 2 * 3_600_000, bucketSeconds: 3600 };
const busy = figures({
  offered: 40,
  answered: 34,
  answeredWithin: 28,
  shortAbandoned: 2,
  abandoned: 4,
  serviceLevel: 0.737,
  abandonRate: 0.105,
  averageAnswerSeconds: 14.2,
  longestAnswerSeconds: 95,
  averageTalkSeconds: 180,
  answerTimes: { within10: 20, within20: 28, within30: 30, within60: 33, within120: 34, later: 0 },
});
const quiet = figures();

describe('ServiceLevelPanels', () => {
  it('says the range’s figures with their definition, draws each bucket, and tells how long answered callers waited', async () => {
    let asked: URL | undefined;
    stubFetch({
      'GET /v1/accounts/:accountID/applications/:applicationID/provider/:providerID/service-levels': ({ url }) => {
        asked = url;
        return Response.json({
          fromDate: new Date(window.from).toISOString(),
          toDate: new Date(window.to).toISOString(),
          bucketSeconds: 3600,
          answerWithinSeconds: 30,
          shortAbandonSeconds: 5,
          totals: busy,
          buckets: [
            { start: new Date(FROM).toISOString(), ...busy },
            { start: new Date(FROM + 3_600_000).toISOString(), ...quiet },
          ],
          subscribers: [{ subscriberID: 'agt-1', firstName: 'Ada', lastName: 'Lovelace', extension: '101', ...busy }],
        });
      },
    });
    renderWithApp(<ServiceLevelPanels scope={scope} window={window} timeZone="UTC" />, { url: '/analytics?sla=30' });
    const panel = await screen.findByRole('region', { name: 'Service level' });
    expect(await within(panel).findByText(/^Service level 73.7 % \(answered within 30 s; callers who gave up within 5 s left out\)/)).toBeInTheDocument();
    expect(asked?.searchParams.get('answerWithinSeconds')).toBe('30');
    expect(within(panel).getByRole('figure', { name: /Line chart of service level and abandon rate per bucket, target 80 %/ })).toBeInTheDocument();
    const waited = within(panel).getByRole('table', { name: 'Answered calls by how long the caller waited' });
    expect(within(waited).getAllByRole('row').slice(1).map((row) => row.textContent)).toEqual([
      'within 10 s2059 %',
      '10 to 20 s824 %',
      '20 to 30 s26 %',
      '30 to 60 s39 %',
      '1 to 2 min13 %',
      'over 2 min00 %',
    ]);
    const perSubscriber = screen.getByRole('region', { name: 'Service level per subscriber' });
    expect(within(perSubscriber).getByRole('row', { name: /Ada Lovelace/ })).toHaveTextContent('Ada Lovelace101403473.7 %0:143:000');
  });

  it('keeps the place of its chart and figures while they load, so nothing below moves when they come', async () => {
    stubFetch({
      'GET /v1/accounts/:accountID/applications/:applicationID/provider/:providerID/service-levels': () => new Promise<Response>(() => undefined),
    });
    renderWithApp(<ServiceLevelPanels scope={scope} window={window} timeZone="UTC" />, { url: '/analytics' });
    const panel = await screen.findByRole('region', { name: 'Service level' });
    expect(within(panel).getByText('Loading…')).toBeInTheDocument();
    expect(within(panel).getByRole('figure', { name: /Line chart of service level and abandon rate per bucket, target 80 %. Loading./ })).toHaveClass('h-64');
    // Laid out, but neither shown nor read until the figures are in.
    expect(within(panel).queryByRole('table', { name: 'Answered calls by how long the caller waited' })).not.toBeInTheDocument();
    expect(within(panel).getByRole('table', { name: 'Answered calls by how long the caller waited', hidden: true }).closest('.invisible')).not.toBeNull();
  });

  it('exports every figure of each bucket under its API name, empty where there is none', () => {
    const csv = serviceLevelBucketsToCsv([{ start: '2026-11-26T08:00:00.000Z', ...quiet }], 'Europe/Paris').split('\r\n');
    expect(csv[0]).toBe(
      'start,start (Europe/Paris),offered,answered,answeredWithin,shortAbandoned,abandoned,waiting,serviceLevel,abandonRate,averageAnswerSeconds,longestAnswerSeconds,averageTalkSeconds,outboundPlaced,outboundConnected,averageOutboundTalkSeconds',
    );
    expect(csv[1]).toBe('2026-11-26T08:00:00.000Z,2026-11-26 09:00,0,0,0,0,0,0,,,,,,0,0,');
  });
});
