import { screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { expect, test, vi } from 'vitest';
import { renderWithApp } from '../../../test-support/render.js';
import type { AlertCenter } from '../hooks/use-alert-center.js';
import type { TrackedAlert } from '../utils/alert-tracker.js';
import { AlertBanner } from './alert-banner.js';

const SINCE = Date.UTC(2026, 0, 5, 9, 30);
const critical: TrackedAlert = {
  id: 'longest-wait',
  level: 'critical',
  title: 'A caller has waited 2:10',
  rule: '2:00 or longer',
  since: SINCE,
  acknowledged: false,
};
const warning: TrackedAlert = {
  id: 'service-level',
  level: 'warning',
  title: 'Service level 74 %',
  rule: 'below 80 %',
  since: SINCE,
  acknowledged: false,
};

const center = (alerts: TrackedAlert[], acknowledge = vi.fn(), ready = true): AlertCenter => ({ alerts, ready, acknowledge });
const strip = () => screen.getByRole('region', { name: 'Alerts' });

test('with nothing tripped, the strip says so on its one line; before the figures are known, it says it is checking', () => {
  const { rerender } = renderWithApp(<AlertBanner center={center([], vi.fn(), false)} />);
  expect(strip()).toHaveTextContent('Checking alerts…');
  rerender(<AlertBanner center={center([])} />);
  expect(strip()).toHaveTextContent('No alerts');
  expect(within(strip()).queryByRole('button')).toBeNull();
});

test('the worst alert takes the one line, which opens every alert in full, each with its own acknowledgement', async () => {
  const user = userEvent.setup();
  const acknowledge = vi.fn();
  renderWithApp(<AlertBanner center={center([critical, warning], acknowledge)} />);
  // The level as word (for screen readers on a narrow screen) and icon, not colour alone.
  expect(strip()).toHaveTextContent('Critical');
  expect(within(strip()).getByRole('strong')).toHaveTextContent('A caller has waited 2:10');
  expect(strip()).not.toHaveTextContent('Service level');
  // The line itself opens the list, and counts the others.
  const line = within(strip()).getByRole('button', {
    name: /^Critical A caller has waited 2:10 — 2:00 or longer since \d\d:\d\d \+1 more$/,
  });
  expect(line).toHaveAttribute('aria-expanded', 'false');

  await user.click(line);
  const list = within(strip()).getByRole('list');
  expect(line).toHaveAttribute('aria-expanded', 'true');
  expect(line).toHaveAttribute('aria-controls', list.id);
  expect(
    within(list)
      .getAllByRole('listitem')
      .map((item) => item.textContent),
  ).toEqual([
    expect.stringContaining('A caller has waited 2:10 — 2:00 or longer'),
    expect.stringContaining('Service level 74 % — below 80 %'),
  ]);
  await user.click(within(list).getByRole('button', { name: 'Acknowledge Service level 74 %' }));
  expect(acknowledge).toHaveBeenCalledWith('service-level');
  // The pressed button becomes a word: focus stays in the strip, on its line.
  expect(line).toHaveFocus();

  await user.keyboard('{Enter}');
  expect(within(strip()).queryByRole('list')).toBeNull();
  expect(line).toHaveAttribute('aria-expanded', 'false');
});

test('an acknowledged alert gives the line up to one that still asks for attention', () => {
  renderWithApp(<AlertBanner center={center([{ ...critical, acknowledged: true }, warning])} />);
  expect(within(strip()).getByRole('strong')).toHaveTextContent('Service level 74 %');
  expect(within(strip()).getByRole('button', { name: 'Acknowledge Service level 74 %' })).toBeInTheDocument();
});

test('one alert acknowledged reads quiet, and its details open from the line', async () => {
  const user = userEvent.setup();
  renderWithApp(<AlertBanner center={center([{ ...warning, acknowledged: true }])} />);
  expect(strip()).toHaveTextContent('Acknowledged: quiet until it clears');
  expect(within(strip()).queryByRole('button', { name: /^Acknowledge/ })).toBeNull();
  await user.click(within(strip()).getByRole('button', { name: /^Warning Service level 74 %/ }));
  expect(within(strip()).getByRole('listitem')).toHaveTextContent(/Service level 74 % — below 80 % since \d\d:\d\d/);
});

test('once everything clears, the next alert comes back as one line', async () => {
  const user = userEvent.setup();
  const { rerender } = renderWithApp(<AlertBanner center={center([warning])} />);
  await user.click(screen.getByRole('button', { name: /^Warning Service level/ }));
  expect(screen.getByRole('list')).toBeInTheDocument();
  rerender(<AlertBanner center={center([])} />);
  rerender(<AlertBanner center={center([critical])} />);
  expect(screen.queryByRole('list')).toBeNull();
  expect(screen.getByRole('button', { name: /^Critical A caller has waited/ })).toHaveAttribute('aria-expanded', 'false');
});
