import { render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { NumbersDisclosure } from './figures-table.js';

describe('NumbersDisclosure', () => {
  it('builds its rows only once it is opened, and gives them all when open', async () => {
    const rows = vi.fn(() => Array.from({ length: 288 }, (_, i) => ({ key: String(i), header: `bucket ${i}`, cells: [i, i * 2] })));
    const user = userEvent.setup();
    render(<NumbersDisclosure caption="Calls per 5 min bucket" columns={['Bucket start', 'Peak', 'Started']} rows={rows} />);

    expect(rows).not.toHaveBeenCalled();
    expect(screen.queryByRole('table', { hidden: true })).not.toBeInTheDocument();

    await user.click(screen.getByText('Show the numbers as a table'));
    const table = await screen.findByRole('table', { name: 'Calls per 5 min bucket' });
    expect(table.querySelectorAll('tbody tr')).toHaveLength(288);
    expect(screen.getByRole('rowheader', { name: 'bucket 287' })).toBeInTheDocument();

    await user.click(screen.getByText('Show the numbers as a table'));
    await vi.waitFor(() => expect(screen.queryByRole('table', { hidden: true })).not.toBeInTheDocument());
  });
});
