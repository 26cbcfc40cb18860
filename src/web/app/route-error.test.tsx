import { act, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RETRY_LOAD_MS } from '../lib/load-failure.js';
import { reloadCheckDelay, RouteError } from './route-error.js';

const RELOADS_KEY = 'callboard.reloads-after-load-failure';
const chunkGone = () => Promise.reject(new TypeError('Failed to fetch dynamically imported module: /assets/live-page-9f.js'));

const show = async (route: { lazy?: () => Promise<{ Component: () => null }>; Component?: () => null }) => {
  render(<RouterProvider router={createMemoryRouter([{ path: '/', ErrorBoundary: RouteError, ...route }])} />);
  await act(async () => vi.advanceTimersByTimeAsync(0));
};

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  vi.useFakeTimers();
  sessionStorage.clear();
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  sessionStorage.clear();
});

describe('RouteError', () => {
  it('says a page could not load, and reloads it once the service answers again', async () => {
    const reload = vi.fn();
    vi.stubGlobal('location', { ...window.location, pathname: '/wallboard', reload });
    const fetch = vi
      .fn()
      .mockRejectedValueOnce(new TypeError('Failed to fetch'))
      .mockResolvedValue(new Response('<html></html>'));
    vi.stubGlobal('fetch', fetch);
    await show({ lazy: chunkGone });
    expect(screen.getByRole('heading', { name: 'This page could not load' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Reload' })).toBeInTheDocument();
    // Out of reach at the first check: the page stays; answering at the second: it reloads.
    await act(async () => vi.advanceTimersByTimeAsync(RETRY_LOAD_MS));
    expect(reload).not.toHaveBeenCalled();
    await act(async () => vi.advanceTimersByTimeAsync(RETRY_LOAD_MS));
    expect(fetch).toHaveBeenCalledWith('/wallboard', { cache: 'no-store' });
    expect(reload).toHaveBeenCalledTimes(1);
    // The next page that cannot load waits twice as long.
    expect(reloadCheckDelay()).toBe(2 * RETRY_LOAD_MS);
  });

  it('waits longer after each reload that did not help, at most 5 minutes, and forgets after 10', async () => {
    const reload = vi.fn();
    vi.stubGlobal('location', { ...window.location, pathname: '/', reload });
    const fetch = vi.fn().mockResolvedValue(new Response('<html></html>'));
    vi.stubGlobal('fetch', fetch);
    sessionStorage.setItem(RELOADS_KEY, JSON.stringify({ count: 2, at: Date.now() }));
    await show({ lazy: chunkGone });
    await act(async () => vi.advanceTimersByTimeAsync(3 * RETRY_LOAD_MS));
    expect(fetch).not.toHaveBeenCalled();
    await act(async () => vi.advanceTimersByTimeAsync(RETRY_LOAD_MS));
    expect(reload).toHaveBeenCalledTimes(1);
    expect(JSON.parse(sessionStorage.getItem(RELOADS_KEY) ?? '{}')).toMatchObject({ count: 3 });
    sessionStorage.setItem(RELOADS_KEY, JSON.stringify({ count: 9, at: Date.now() }));
    expect(reloadCheckDelay()).toBe(5 * 60_000);
    expect(reloadCheckDelay(Date.now() + 10 * 60_000)).toBe(RETRY_LOAD_MS);
  });

  it('names what broke, offers a reload, and does not reload by itself', async () => {
    const reload = vi.fn();
    vi.stubGlobal('location', { ...window.location, pathname: '/', reload });
    const fetch = vi.fn().mockResolvedValue(new Response('<html></html>'));
    vi.stubGlobal('fetch', fetch);
    await show({
      Component: () => {
        throw new Error('workspace has no providers');
      },
    });
    expect(screen.getByRole('heading', { name: 'Something went wrong on this page' })).toBeInTheDocument();
    expect(screen.getByText(/workspace has no providers\. Reloading starts the page afresh/)).toBeInTheDocument();
    await act(async () => vi.advanceTimersByTimeAsync(10 * RETRY_LOAD_MS));
    expect(fetch).not.toHaveBeenCalled();
    expect(reload).not.toHaveBeenCalled();
  });
});
