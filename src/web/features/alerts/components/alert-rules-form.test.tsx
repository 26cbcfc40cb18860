import { screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderWithApp } from '../../../test-support/render.js';
import { AlertRulesForm } from './alert-rules-form.js';

describe('AlertRulesForm', () => {
  it('starts from the rules in the address and saves new ones into it, empty levels off', async () => {
    const user = userEvent.setup();
    const { location } = renderWithApp(<AlertRulesForm />, { url: '/?alerts=waiting:3:6' });
    const waitingWarning = screen.getByRole('spinbutton', { name: 'Callers waiting: warning at' });
    expect(waitingWarning).toHaveValue(3);
    expect(screen.getByRole('spinbutton', { name: 'Callers waiting: critical at' })).toHaveValue(6);

    await user.clear(waitingWarning);
    await user.type(screen.getByRole('spinbutton', { name: 'Agents available: warning below' }), '4');
    await user.type(screen.getByRole('spinbutton', { name: 'Agents available: critical below' }), '1');
    await user.click(screen.getByRole('button', { name: 'Save alerts' }));

    expect(new URLSearchParams(location().search).get('alerts')).toBe('waiting::6,available:4:1');
    expect(screen.getByText(/^Saved in the address/)).toBeInTheDocument();
  });

  it('refuses a critical level that is not worse than the warning, and a level that is not a whole number, saying where', async () => {
    const user = userEvent.setup();
    const { location } = renderWithApp(<AlertRulesForm />, { url: '/' });
    await user.type(screen.getByRole('spinbutton', { name: 'Live calls: warning at' }), '50');
    await user.type(screen.getByRole('spinbutton', { name: 'Live calls: critical at' }), '40');
    await user.type(screen.getByRole('spinbutton', { name: 'Missed in 15 min: warning at' }), '2.5');
    await user.click(screen.getByRole('button', { name: 'Save alerts' }));

    const missed = screen.getByRole('spinbutton', { name: 'Missed in 15 min: warning at' });
    expect(missed).toHaveAccessibleDescription('Use a whole number from 0 to 100,000, or leave it empty.');
    expect(missed).toHaveFocus();
    expect(screen.getByRole('spinbutton', { name: 'Live calls: critical at' })).toHaveAccessibleDescription('Critical must be higher than the warning.');
    expect(new URLSearchParams(location().search).get('alerts')).toBeNull();
  });

  it('turns every count alert off at once', async () => {
    const user = userEvent.setup();
    const { location } = renderWithApp(<AlertRulesForm />, { url: '/?alerts=live:40:60' });
    await user.click(screen.getByRole('button', { name: 'Turn off' }));
    expect(new URLSearchParams(location().search).get('alerts')).toBeNull();
    expect(screen.getByRole('spinbutton', { name: 'Live calls: warning at' })).toHaveValue(null);
  });
});
