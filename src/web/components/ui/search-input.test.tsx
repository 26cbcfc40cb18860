import { act, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { expect, test, vi } from 'vitest';
import { SearchInput } from './search-input.js';

/** A panel that redraws on every update of its data, as the agent board and the call list do. */
const Redrawn = ({ onSearch, updates }: { onSearch: (text: string) => void; updates: number }) => (
  <section>
    <p>update {updates}</p>
    <SearchInput aria-label="Find" placeholder="Name" onSearch={onSearch} />
  </section>
);

const attributeWrites = (element: Element) => {
  const records: string[] = [];
  const observer = new MutationObserver((mutations) => records.push(...mutations.map((m) => m.attributeName ?? '')));
  observer.observe(element, { attributes: true });
  return { taken: () => [...records, ...observer.takeRecords().map((m) => m.attributeName ?? '')] };
};

test('the box is left untouched while the panel around it redraws', () => {
  const onSearch = vi.fn();
  const { rerender } = render(<Redrawn onSearch={onSearch} updates={0} />);
  const box = screen.getByRole('searchbox', { name: 'Find' });
  const writes = attributeWrites(box);
  for (let updates = 1; updates <= 5; updates += 1) rerender(<Redrawn onSearch={onSearch} updates={updates} />);
  expect(screen.getByText('update 5')).toBeTruthy();
  // A plain <input> with an inline handler gets `type` set again, and `name` written, on each redraw.
  expect(writes.taken()).toEqual([]);
});

test('each change hands over the text, and typing keeps working across redraws', () => {
  const Owner = () => {
    const [text, setText] = useState('');
    return (
      <>
        <output aria-label="Searched">{text}</output>
        <SearchInput aria-label="Find" value={text} onSearch={setText} />
      </>
    );
  };
  render(<Owner />);
  const box = screen.getByRole('searchbox', { name: 'Find' });
  act(() => void fireEvent.change(box, { target: { value: '20' } }));
  act(() => void fireEvent.change(box, { target: { value: '201' } }));
  expect(screen.getByRole('status', { name: 'Searched' }).textContent).toBe('201');
  expect((box as HTMLInputElement).value).toBe('201');
});
