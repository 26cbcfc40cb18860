import { screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { useQueueParam } from '../../../lib/queue-scope.js';
import { stubFetch } from '../../../test-support/fetch-stub.js';
import { renderWithApp } from '../../../test-support/render.js';
import { queuesAnswer } from '../../../test-support/reports.js';
import { useReportSettings } from '../hooks/use-report-settings.js';
import { QueueControls, PeriodControls } from './report-controls.js';

const scope = { accountID: 'demo', applicationID: 'support', providerID: 'pbx-main' };

const Controls = () => {
  const [settings, setSettings] = useReportSettings();
  const [ids, setIds] = useQueueParam();
  return (
    <>
      <PeriodControls settings={settings} days={{ fromDay: '2026-11-26', toDay: '2026-11-26' }} onSettingsChange={setSettings} />
      <QueueControls scope={scope} ids={ids} onIdsChange={setIds} />
    </>
  );
};

const stubQueues = () =>
  stubFetch({
    'GET /v1/accounts/:accountID/applications/:applicationID/provider/:providerID/queues': () =>
      Response.json(
        queuesAnswer([
          { queueID: 'sales', name: 'Sales' },
          { queueID: 'support', name: 'Support' },
        ]),
      ),
  });

describe('report controls', () => {
  it('write the period, the interval and the queues into the address', async () => {
    stubQueues();
    const user = userEvent.setup();
    const { location } = renderWithApp(<Controls />, { url: '/reports?tz=UTC' });
    await user.click(screen.getByRole('button', { name: 'Yesterday' }));
    expect(new URLSearchParams(location().search).get('period')).toBe('yesterday');
    await user.click(screen.getByRole('button', { name: '15 min' }));
    expect(Object.fromEntries(new URLSearchParams(location().search))).toEqual({
      tz: 'UTC',
      period: 'yesterday',
      interval: '15',
    });
    expect(screen.getByRole('button', { name: '15 min' })).toHaveAttribute('aria-pressed', 'true');

    await user.click(screen.getByRole('button', { name: 'Custom days' }));
    await user.clear(screen.getByLabelText('First day'));
    await user.type(screen.getByLabelText('First day'), '2026-11-01');
    await user.clear(screen.getByLabelText('Last day'));
    await user.type(screen.getByLabelText('Last day'), '2026-11-07');
    await user.click(screen.getByRole('button', { name: 'Show days' }));
    expect(Object.fromEntries(new URLSearchParams(location().search))).toEqual({
      tz: 'UTC',
      period: 'custom',
      fromDay: '2026-11-01',
      toDay: '2026-11-07',
      interval: '15',
    });

    await user.click(await screen.findByRole('checkbox', { name: 'Support' }));
    await user.click(screen.getByRole('checkbox', { name: 'No queue' }));
    expect(new URLSearchParams(location().search).get('queue')).toBe('support,none');
    await user.click(screen.getByRole('button', { name: 'All queues' }));
    expect(new URLSearchParams(location().search).has('queue')).toBe(false);
  });

  it('says what is wrong with custom days and keeps the address as it was', async () => {
    stubQueues();
    const user = userEvent.setup();
    const { location } = renderWithApp(<Controls />, { url: '/reports?period=today&interval=30' });
    await user.click(screen.getByRole('button', { name: 'Custom days' }));
    await user.clear(screen.getByLabelText('First day'));
    await user.type(screen.getByLabelText('First day'), '2026-09-01');
    await user.click(screen.getByRole('button', { name: 'Show days' }));
    expect(screen.getByRole('alert')).toHaveTextContent('A report spans at most 31 days.');
    expect(screen.getByLabelText('First day')).toHaveAttribute('aria-invalid', 'true');
    expect(new URLSearchParams(location().search).get('period')).toBe('today');
  });

  it('are reached in order with the Tab key and worked with the keyboard', async () => {
    stubQueues();
    const user = userEvent.setup();
    const { location } = renderWithApp(<Controls />, { url: '/reports' });
    await screen.findByRole('checkbox', { name: 'Sales' });
    const order = [
      'Today',
      'Yesterday',
      'Last 7 days',
      'This month',
      'Custom days',
      '15 min',
      '30 min',
      '1 h',
      'All queues',
      'Sales',
      'Support',
      'No queue',
    ];
    for (const name of order) {
      await user.tab();
      expect(document.activeElement).toHaveAccessibleName(name);
    }
    await user.keyboard(' ');
    expect(new URLSearchParams(location().search).get('queue')).toBe('none');
    await user.tab({ shift: true });
    await user.tab({ shift: true });
    await user.tab({ shift: true });
    await user.tab({ shift: true });
    await user.keyboard('{Enter}');
    expect(new URLSearchParams(location().search).get('interval')).toBe('60');
  });
});
