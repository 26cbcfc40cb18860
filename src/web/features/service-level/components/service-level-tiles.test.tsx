import { screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ProviderScope } from '../../../../contract/paths.js';
import { callRecord } from '../../../test-support/call-record.js';
import { stubFetch } from '../../../test-support/fetch-stub.js';
import { renderWithApp } from '../../../test-support/render.js';
import { figures, serviceLevelsAnswer } from '../../../test-support/service-levels.js';
import { ServiceLevelTiles } from './service-level-tiles.js';

const SERVICE_LEVELS = 'GET /v1/accounts/:accountID/applications/:applicationID/provider/:providerID/service-levels';
const scopes: ProviderScope[] = [
  { accountID: 'demo', applicationID: 'support', providerID: 'pbx-main' },
  { accountID: 'demo', applicationID: 'support', providerID: 'sip-trunk' },
];
const tile = (name: string) => screen.getByRole('group', { name });
// One instant for the fixtures and the tiles' ticking clock: the waits below cannot age what they show.
const NOW = Date.parse('2026-11-26T10:00:00Z');
const ago = (ms: number) => new Date(NOW - ms).toISOString();
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'], now: NOW });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('ServiceLevelTiles', () => {
  it('shows the last 15 minutes and the day for every provider on screen, with the definition’s parameters, coloured past the URL’s levels', async () => {
    const asked: URL[] = [];
    stubFetch({
      [SERVICE_LEVELS]: ({ url, params }) => {
        asked.push(url);
        const recent = url.searchParams.get('bucketSeconds') === '900';
        // The last 15 minutes: 7 of 10 in time over both providers; the day: 18 of 20.
        const totals = recent
          ? figures({ offered: 5, answered: 5, answeredWithin: params.providerID === 'pbx-main' ? 4 : 3, serviceLevel: 0.7, averageAnswerSeconds: 10 })
          : figures({ offered: 10, answered: 10, answeredWithin: 9, abandoned: 0, serviceLevel: 0.9, abandonRate: 0, averageAnswerSeconds: 12, longestAnswerSeconds: 75 });
        return Response.json(serviceLevelsAnswer(url, totals));
      },
    });
    const waiting = [callRecord('queued', { startedAt: ago(95_000) }), callRecord('ringing', { startedAt: ago(10_000), subscriberID: 'agt-1' })];
    renderWithApp(
      <div role="region" aria-label="tiles">
        <ServiceLevelTiles calls={waiting} scopes={scopes} loading={false} />
      </div>,
      { url: '/?tz=UTC&sla=30&slwarn=75' },
    );
    await waitFor(() => expect(within(tile('Service level')).getByText('70 %')).toBeInTheDocument());
    expect(asked.every((url) => url.searchParams.get('answerWithinSeconds') === '30' && url.searchParams.get('shortAbandonSeconds') === '5')).toBe(true);
    // The tiles show totals only: never the per-subscriber rows, a large center's megabytes.
    expect(asked.every((url) => url.searchParams.get('subscribers') === 'omit')).toBe(true);
    expect(tile('Service level')).toHaveTextContent('Within 30 s in 15 min · today 90 %');
    // Figures and units are joined by no-break spaces: a narrow tile never wraps "90" from its "%".
    expect(tile('Service level').textContent).toContain('Within 30\u00a0s in 15\u00a0min · today 90\u00a0%');
    expect(tile('Service level')).toHaveTextContent('Below 75 %');
    expect(tile('Speed of answer')).toHaveTextContent('0:12');
    expect(tile('Speed of answer')).toHaveTextContent('longest 1:15');
    expect(tile('Abandon rate')).toHaveTextContent('0 %');
    // Who waits, from the live calls: two callers, the longest for 1:35, one of them not ringing anyone yet.
    expect(tile('Waiting now')).toHaveTextContent('2');
    expect(tile('Waiting now')).toHaveTextContent('Longest 1:35 · 1 in queue');
    expect(tile('Waiting now')).toHaveTextContent('Over 1:00');
  });

  it('says what each figure means, on keyboard focus of its "about" button', async () => {
    stubFetch({ [SERVICE_LEVELS]: ({ url }) => Response.json(serviceLevelsAnswer(url)) });
    const user = userEvent.setup();
    renderWithApp(<ServiceLevelTiles calls={[]} scopes={scopes.slice(0, 1)} loading={false} />, { url: '/?tz=UTC' });
    const about = screen.getByRole('button', { name: 'About Service level' });
    await user.tab();
    expect(about).toHaveFocus();
    expect(about).toHaveAccessibleDescription(/the share answered within 20 s, callers who gave up within 5 s left out/);
    await waitFor(() => expect(tile('Service level')).toHaveTextContent('—'));
    expect(tile('Waiting now')).toHaveTextContent('Nobody waiting');
  });
});
