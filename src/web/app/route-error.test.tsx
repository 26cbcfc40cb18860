import { act, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RELOAD_CHECK_MS, RouteError } from './route-error.js';

const routerWith = (route: { lazy?: () => Promise<{ Component: () => null }>; Component?: () => null }) =>
  createMemoryRouter([{ path: '/', ErrorBoundary: RouteError, ...route }]);

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('RouteError', () => {
  it('says a page could not load, and reloads it once the service answers again', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    vi.useFakeTimers();
    const reload = vi.fn();
    vi.stubGlobal('location', { ...window.location, pathname: '/wallboard', reload });
    const fetch = vi.fn().mockRejectedValueOnce(new TypeError('Failed to fetch')).mockResolvedValue(new Response('<html></html>'));
    vi.stubGlobal('fetch', fetch);
    const router = routerWith({ lazy: () => Promise.reject(new TypeError('Failed to fetch dynamically imported module: /assets/live-page-9f.js')) });
    render(<RouterProvider router={router} />);
    await act(async () => vi.advanceTimersByTimeAsync(0));
    expect(screen.getByRole('heading', { name: 'This page could not load' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Reload' })).toBeInTheDocument();
    // Out of reach at the first check: the page stays; answering at the second: it reloads.
    await act(async () => vi.advanceTimersByTimeAsync(RELOAD_CHECK_MS));
    expect(reload).not.toHaveBeenCalled();
    await act(async () => vi.advanceTimersByTimeAsync(RELOAD_CHECK_MS));
    expect(fetch).toHaveBeenCalledWith('/wallboard', { cache: 'no-store' });
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('names what broke, offers a reload, and does not reload by itself', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    const router = routerWith({
      Component: () => {
        throw new Error('workspace has no providers');
      },
    });
    render(<RouterProvider router={router} />);
    expect(await screen.findByRole('heading', { name: 'Something went wrong on this page' })).toBeInTheDocument();
    expect(screen.getByText(/workspace has no providers\. Reloading starts the page afresh/)).toBeInTheDocument();
    expect(fetch).not.toHaveBeenCalled();
  });
});
