import { act, render, screen } from '@testing-library/react';
import { Suspense, useState, type ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { lazyComponent } from './lazy-component.js';

const Greeting = ({ name }: { name: string }) => {
  const [count, setCount] = useState(0);
  return (
    <button type="button" onClick={() => setCount(count + 1)}>
      Hello {name} {count}
    </button>
  );
};

const inSuspense = (children: ReactNode) => <Suspense fallback={<p>Loading…</p>}>{children}</Suspense>;

describe('lazyComponent', () => {
  it('loads on first render, through the Suspense fallback, and keeps its state as it arrives', async () => {
    const load = vi.fn(() => Promise.resolve(Greeting));
    const { Component } = lazyComponent(load);
    const { rerender } = render(inSuspense(<Component name="Ada" />));
    expect(screen.getByText('Loading…')).toBeInTheDocument();
    const button = await screen.findByRole('button', { name: 'Hello Ada 0' });
    await act(async () => button.click());
    rerender(inSuspense(<Component name="Grace" />));
    expect(screen.getByRole('button', { name: 'Hello Grace 1' })).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('renders at once, without the fallback, once preloaded', async () => {
    const load = vi.fn(() => Promise.resolve(Greeting));
    const { Component, preload, loaded } = lazyComponent(load);
    expect(loaded()).toBeUndefined();
    await preload();
    await preload();
    expect(loaded()).toBe(Greeting);
    render(inSuspense(<Component name="Ada" />));
    expect(screen.queryByText('Loading…')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Hello Ada 0' })).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('asks again after a failed load', async () => {
    const load = vi.fn<() => Promise<typeof Greeting>>().mockRejectedValueOnce(new Error('offline')).mockResolvedValue(Greeting);
    const { Component, preload } = lazyComponent(load);
    await expect(preload()).rejects.toThrow('offline');
    await preload();
    render(inSuspense(<Component name="Ada" />));
    expect(screen.getByRole('button', { name: 'Hello Ada 0' })).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(2);
  });
});
