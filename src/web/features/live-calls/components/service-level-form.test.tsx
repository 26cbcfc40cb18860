import { screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderWithApp } from '../../../test-support/render.js';
import { ServiceLevelForm } from './service-level-form.js';

const fill = async (user: ReturnType<typeof userEvent.setup>, label: string, value: string) => {
  const input = screen.getByRole('spinbutton', { name: label });
  await user.clear(input);
  if (value !== '') await user.type(input, value);
  return input;
};

describe('ServiceLevelForm', () => {
  it('starts from the settings in the address, in seconds and percent', () => {
    renderWithApp(<ServiceLevelForm />, { url: '/?sla=30&slwarn=90&slcrit=85&waitcrit=120' });
    expect(screen.getByRole('spinbutton', { name: 'Answered within' })).toHaveValue(30);
    expect(screen.getByRole('spinbutton', { name: 'Leave out callers who give up within' })).toHaveValue(5);
    expect(screen.getByRole('spinbutton', { name: 'Service level warning below' })).toHaveValue(90);
    expect(screen.getByRole('spinbutton', { name: 'Service level critical below' })).toHaveValue(85);
    expect(screen.getByRole('spinbutton', { name: 'Longest wait critical after' })).toHaveValue(120);
  });

  it('saves into the address, keeping its other parameters and leaving out what is at its default', async () => {
    const user = userEvent.setup();
    const { location } = renderWithApp(<ServiceLevelForm />, { url: '/wallboard?tz=UTC' });
    await fill(user, 'Answered within', '15');
    await fill(user, 'Service level critical below', '70');
    await fill(user, 'Longest wait warning after', '45');
    await user.click(screen.getByRole('button', { name: 'Save service level' }));
    expect(location()).toEqual({ pathname: '/wallboard', search: '?tz=UTC&sla=15&waitwarn=45' });
    expect(screen.getByText(/saved in the address: bookmark it/i)).toHaveAttribute('role', 'status');
  });

  it('refuses a critical level that is not past the warning one, and focuses the first field in error', async () => {
    const user = userEvent.setup();
    const { location } = renderWithApp(<ServiceLevelForm />);
    await fill(user, 'Service level critical below', '85');
    await fill(user, 'Longest wait critical after', '30');
    await user.click(screen.getByRole('button', { name: 'Save service level' }));
    const critical = screen.getByRole('spinbutton', { name: 'Service level critical below' });
    expect(critical).toHaveAccessibleDescription('Critical must be below the warning level.');
    expect(critical).toHaveFocus();
    expect(screen.getByRole('spinbutton', { name: 'Longest wait critical after' })).toHaveAccessibleDescription(
      'Critical must be after the warning.',
    );
    expect(location().search).toBe('');
  });

  it('refuses empty, fractional and out-of-range values, saying which range', async () => {
    const user = userEvent.setup();
    renderWithApp(<ServiceLevelForm />);
    await fill(user, 'Answered within', '');
    await fill(user, 'Leave out callers who give up within', '2.5');
    await fill(user, 'Service level warning below', '101');
    await user.click(screen.getByRole('button', { name: 'Save service level' }));
    expect(screen.getByRole('spinbutton', { name: 'Answered within' })).toHaveAccessibleDescription('Enter a number of seconds.');
    expect(screen.getByRole('spinbutton', { name: 'Leave out callers who give up within' })).toHaveAccessibleDescription(
      'Use a whole number of seconds.',
    );
    expect(screen.getByRole('spinbutton', { name: 'Service level warning below' })).toHaveAccessibleDescription(
      'Use 1 to 100 %.',
    );
  });

  it('restores the defaults, which clears them from the address', async () => {
    const user = userEvent.setup();
    const { location } = renderWithApp(<ServiceLevelForm />, { url: '/?sla=45&tz=UTC' });
    await user.click(screen.getByRole('button', { name: 'Restore defaults' }));
    expect(screen.getByRole('spinbutton', { name: 'Answered within' })).toHaveValue(20);
    expect(location().search).toBe('?tz=UTC');
  });
});
