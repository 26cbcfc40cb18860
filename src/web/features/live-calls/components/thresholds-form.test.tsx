import { render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ThresholdsForm } from './thresholds-form.js';

const stored = () => JSON.parse(localStorage.getItem('callboard.thresholds') ?? 'null') as unknown;

const fill = async (user: ReturnType<typeof userEvent.setup>, label: string, value: string) => {
  const input = screen.getByRole('spinbutton', { name: label });
  await user.clear(input);
  if (value !== '') await user.type(input, value);
  return input;
};

describe('ThresholdsForm', () => {
  it('starts from the saved thresholds', () => {
    localStorage.setItem(
      'callboard.thresholds',
      JSON.stringify({ longCallMs: 15 * 60_000, longRingMs: 20_000, concurrentCalls: 40 }),
    );
    render(<ThresholdsForm />);
    expect(screen.getByRole('spinbutton', { name: 'Long call after' })).toHaveValue(15);
    expect(screen.getByRole('spinbutton', { name: 'Long ring after' })).toHaveValue(20);
    expect(screen.getByRole('spinbutton', { name: 'Concurrent calls limit' })).toHaveValue(40);
  });

  it('saves valid values in milliseconds and says so', async () => {
    const user = userEvent.setup();
    render(<ThresholdsForm />);
    await fill(user, 'Long call after', '12');
    await fill(user, 'Long ring after', '45');
    await fill(user, 'Concurrent calls limit', '150');
    await user.click(screen.getByRole('button', { name: 'Save thresholds' }));
    expect(stored()).toEqual({ longCallMs: 12 * 60_000, longRingMs: 45_000, concurrentCalls: 150 });
    expect(screen.getByRole('status')).toHaveTextContent(/saved/i);
  });

  it('refuses empty, fractional and out-of-range values, saying which and why', async () => {
    const user = userEvent.setup();
    render(<ThresholdsForm />);
    const call = await fill(user, 'Long call after', '');
    const ring = await fill(user, 'Long ring after', '2');
    const limit = await fill(user, 'Concurrent calls limit', '1.5');
    await user.click(screen.getByRole('button', { name: 'Save thresholds' }));

    expect(stored()).toBeNull();
    expect(call).toHaveAttribute('aria-invalid', 'true');
    expect(call).toHaveAccessibleDescription('Enter how many minutes of talking make a call long.');
    expect(ring).toHaveAccessibleDescription('Use 5 to 600 seconds.');
    expect(limit).toHaveAccessibleDescription('Use a whole number of calls.');
    expect(call).toHaveFocus();
  });

  it('restores the defaults', async () => {
    const user = userEvent.setup();
    render(<ThresholdsForm />);
    await fill(user, 'Long ring after', '90');
    await user.click(screen.getByRole('button', { name: 'Restore defaults' }));
    expect(screen.getByRole('spinbutton', { name: 'Long ring after' })).toHaveValue(30);
    expect(stored()).toEqual({ longCallMs: 600_000, longRingMs: 30_000, concurrentCalls: 20 });
  });
});
