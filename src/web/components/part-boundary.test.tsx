import { act, render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { Suspense } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { lazyComponent } from '../lib/lazy-component.js';
import { PartBoundary } from './part-boundary.js';

const Chart = () => <p>the chart</p>;
const chunkGone = () => new TypeError('Failed to fetch dynamically imported module: /assets/chart-1a2b.js');

afterEach(() => vi.restoreAllMocks());

describe('PartBoundary', () => {
  it('says in place that a part could not load, keeps the rest of the page, and loads it on Try again', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    let reachable = false;
    const load = vi.fn(() => (reachable ? Promise.resolve(Chart) : Promise.reject(chunkGone())));
    const { Component } = lazyComponent(load);
    render(
      <div>
        <p>the calls</p>
        <PartBoundary what="The chart">
          <Suspense fallback={<p>Loading chart…</p>}>
            <Component />
          </Suspense>
        </PartBoundary>
      </div>,
    );
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The chart could not load: the service may have been updated, or be out of reach.',
    );
    expect(screen.getByText('the calls')).toBeInTheDocument();
    // One request for the one try: React's own retries of a failed render ask no more.
    expect(load).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('button', { name: 'Reload the page' })).not.toBeInTheDocument();
    reachable = true;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('the chart')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('names what broke when a part fails for another reason', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const Broken = () => {
      throw new Error('no scale for an empty range');
    };
    render(
      <PartBoundary what="The chart">
        <Broken />
      </PartBoundary>,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('The chart stopped working: no scale for an empty range.');
    expect(screen.queryByRole('button', { name: 'Close' })).not.toBeInTheDocument();
  });

  it('on a screen nobody touches, tries again on its own; a try that fails again also offers a reload', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.useFakeTimers();
    try {
      let reachable = false;
      const load = vi.fn(() => (reachable ? Promise.resolve(Chart) : Promise.reject(chunkGone())));
      const { Component } = lazyComponent(load);
      render(
        <PartBoundary what="The chart" retryEveryMs={15_000}>
          <Suspense fallback={<p>Loading chart…</p>}>
            <Component />
          </Suspense>
        </PartBoundary>,
      );
      await act(async () => vi.advanceTimersByTimeAsync(0));
      expect(screen.getByRole('alert')).toHaveTextContent('The chart could not load');
      await act(async () => vi.advanceTimersByTimeAsync(15_000));
      expect(load).toHaveBeenCalledTimes(2);
      expect(screen.getByRole('button', { name: 'Reload the page' })).toBeInTheDocument();
      reachable = true;
      await act(async () => vi.advanceTimersByTimeAsync(15_000));
      expect(screen.getByText('the chart')).toBeInTheDocument();
      expect(load).toHaveBeenCalledTimes(3);
    } finally {
      vi.useRealTimers();
    }
  });

  it('lets a part the user opened be put away instead', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const Broken = () => {
      throw chunkGone();
    };
    const close = vi.fn();
    render(
      <PartBoundary what="Ending a call" onDismiss={close}>
        <Broken />
      </PartBoundary>,
    );
    // The message takes the focus from the button that opened the part; Escape puts it away too.
    expect(screen.getByRole('alert')).toHaveFocus();
    await userEvent.keyboard('{Escape}');
    expect(close).toHaveBeenCalledTimes(1);
    await userEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(close).toHaveBeenCalledTimes(2);
  });
});
