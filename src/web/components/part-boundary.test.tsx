import { render, screen } from '@testing-library/react';
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
    const failedLoads = load.mock.calls.length;
    reachable = true;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('the chart')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(failedLoads + 1);
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
    await userEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(close).toHaveBeenCalledTimes(1);
  });
});
