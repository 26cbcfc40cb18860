/**
 * What a page shows instead of itself when it could not load or broke: what happened, and the way
 * back, never a blank screen or a stack trace. A page whose code could not load (the service was
 * updated since it opened, or is out of reach) reloads by itself once the service answers: nobody
 * is at a wall screen to press Reload.
 */
import { useEffect } from 'react';
import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { Button } from '../components/ui/button.js';
import { isLoadFailure, RETRY_LOAD_MS } from '../lib/load-failure.js';

/** At most this long between checks of a page that keeps failing to load. */
const LONGEST_CHECK_MS = 5 * 60_000;
const RELOADS_KEY = 'callboard.reloads-after-load-failure';
/** Reloads further back than this are forgotten: a page that loaded since starts again at 15 s. */
const RELOADS_FORGOTTEN_MS = 10 * 60_000;

/** Reloads of this tab for a page that could not load, in the last 10 minutes. */
const recentReloads = (now: number): number => {
  try {
    const saved = JSON.parse(sessionStorage.getItem(RELOADS_KEY) ?? 'null') as { count?: unknown; at?: unknown } | null;
    if (typeof saved?.count === 'number' && typeof saved.at === 'number' && now - saved.at < RELOADS_FORGOTTEN_MS)
      return saved.count;
  } catch {
    /* unreadable: none */
  }
  return 0;
};

const noteReload = (now: number) => {
  try {
    sessionStorage.setItem(RELOADS_KEY, JSON.stringify({ count: recentReloads(now) + 1, at: now }));
  } catch {
    /* storage refused: the next page checks every 15 s */
  }
};

/**
 * How long a page that could not load waits between its checks: 15 s, twice that after each
 * reload of this tab in the last 10 minutes (at most 5 minutes), so a page whose code keeps failing
 * behind a service that answers (a proxy that blocks it, a broken update) is not reloaded every
 * 15 s for good.
 */
export const reloadCheckDelay = (now: number = Date.now()): number =>
  Math.min(LONGEST_CHECK_MS, RETRY_LOAD_MS * 2 ** recentReloads(now));

const describe = (error: unknown): string => {
  if (isRouteErrorResponse(error)) return `${error.status} ${error.statusText}`.trim();
  if (error instanceof Error) return error.message;
  return String(error);
};

const useReloadWhenReachable = (enabled: boolean) =>
  useEffect(() => {
    if (!enabled) return;
    let stopped = false;
    const timer = setInterval(() => {
      // The page's own address (its fragment stays here): the service answers it once it is back, with its current files.
      fetch(window.location.pathname, { cache: 'no-store' })
        .then((response) => {
          if (!response.ok || stopped) return;
          noteReload(Date.now());
          window.location.reload();
        })
        .catch(() => undefined);
    }, reloadCheckDelay());
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [enabled]);

const WhatHappened = () => {
  const error = useRouteError();
  const loadFailure = isLoadFailure(error);
  useReloadWhenReachable(loadFailure);
  return (
    <>
      <div role="alert">
        <h1 className="text-2xl font-semibold">
          {loadFailure ? 'This page could not load' : 'Something went wrong on this page'}
        </h1>
        <p className="mt-2 text-muted">
          {loadFailure
            ? 'The service may have been updated since this page opened, or be out of reach. The page reloads by itself as soon as the service answers.'
            : `${describe(error)}. Reloading starts the page afresh; calls in progress are not affected.`}
        </p>
      </div>
      <div className="mt-4 flex items-center gap-4">
        <Button variant="primary" onClick={() => window.location.reload()}>
          Reload
        </Button>
        <Link className="text-accent underline" to="/" reloadDocument>
          Go to the live view
        </Link>
      </div>
    </>
  );
};

/** A page of its own (the wallboard, the connection page): the message is the page. */
export const RouteError = () => (
  <main className="mx-auto max-w-lg p-8">
    <WhatHappened />
  </main>
);

/** A page inside the layout (the live view, analytics): in its place, the navigation above it. */
export const PageError = () => (
  <div className="mx-auto max-w-lg py-8">
    <WhatHappened />
  </div>
);
