import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { expect, test } from 'vitest';
import { useTableParams } from './use-table-params.js';

const inRouter = ({ children }: { children: ReactNode }) => (
  <MemoryRouter initialEntries={['/?search=ext&state=ringing']}>{children}</MemoryRouter>
);

test('the setters stay the same while the URL stays put, so the controls given them need not redraw', () => {
  const { result, rerender } = renderHook(() => useTableParams(), { wrapper: inRouter });
  const first = result.current;
  rerender();
  const { sort: _sort, filters: _filters, hidden: _hidden, ...setters } = result.current;
  for (const [name, setter] of Object.entries(setters)) expect(setter, name).toBe(first[name as keyof typeof setters]);
});

test('a setter writes the URL and the filters follow it', () => {
  const { result } = renderHook(() => useTableParams(), { wrapper: inRouter });
  expect(result.current.filters).toMatchObject({ search: 'ext', states: ['ringing'] });
  act(() => result.current.setSearch('201'));
  expect(result.current.filters).toMatchObject({ search: '201', states: ['ringing'] });
  act(() => result.current.clearFilters());
  expect(result.current.filters).toMatchObject({ search: '', states: [] });
});
