import { render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, expect, test, vi } from 'vitest';
import type { AlertCenterInput } from '../hooks/use-alert-center.js';

const input = (ready: boolean): AlertCenterInput => ({ calls: [], scopes: [], board: undefined, ready });
const strip = () => screen.getByRole('region', { name: 'Alerts' });

/** The strip with its alerts' module replaced: `load` stands for the browser fetching that code. */
const stripWith = async (load: () => Promise<unknown>) => {
  vi.resetModules();
  vi.doMock('./live-alerts.js', async () => {
    await load();
    return { LiveAlerts: ({ ready }: AlertCenterInput) => <section aria-label="Alerts">{ready ? 'the rules, ready' : 'the rules, waiting'}</section> };
  });
  return (await import('./live-alert-strip.js')).LiveAlertStrip;
};

afterEach(() => {
  vi.doUnmock('./live-alerts.js');
  vi.unstubAllGlobals();
});

test('holds its line, checking, until the first data; then loads the rules and hands them the figures', async () => {
  const load = vi.fn(async () => undefined);
  const LiveAlertStrip = await stripWith(load);
  const { rerender } = render(<LiveAlertStrip {...input(false)} />);
  expect(strip()).toHaveTextContent('Checking alerts…');
  expect(load).not.toHaveBeenCalled();

  rerender(<LiveAlertStrip {...input(true)} />);
  expect(await screen.findByText('the rules, ready')).toBeInTheDocument();
  expect(load).toHaveBeenCalledTimes(1);
  // Loaded once for the page: the data going and coming back keeps the rules, which say they are waiting.
  rerender(<LiveAlertStrip {...input(false)} />);
  expect(strip()).toHaveTextContent('the rules, waiting');
});

test('a load that fails says so on the same line and offers a reload', async () => {
  const LiveAlertStrip = await stripWith(async () => {
    throw new Error('Failed to fetch dynamically imported module');
  });
  render(<LiveAlertStrip {...input(true)} />);
  expect(await screen.findByText('Alerts could not load: reload the page to check them.')).toBeInTheDocument();
  const reload = vi.fn();
  vi.stubGlobal('location', { ...window.location, reload });
  await userEvent.setup().click(screen.getByRole('button', { name: 'Reload' }));
  expect(reload).toHaveBeenCalledTimes(1);
});
