/**
 * Routes: the live view, an agent's desk, analytics, reports, the wallboard, the sign-in and connection pages
 * and phone links; pages load lazily. A page that fails to load or breaks shows what happened in its place
 * (`RouteError`; `PageError` inside the layout, for the pages with the navigation, so it stays).
 */
import { createBrowserRouter, redirect } from 'react-router';
import { PHONE_LINK_PATH, phoneLinkTarget } from '../lib/phone-links.js';
import { AppLayout } from './app-layout.js';
import { RequireConnection } from './require-connection.js';
import { RoleLanding } from './role-landing.js';
import { PageError, RouteError } from './route-error.js';

const Loading = () => <p className="p-6 text-muted">Loading…</p>;

export const router = createBrowserRouter([
  {
    path: '/connect',
    HydrateFallback: Loading,
    ErrorBoundary: RouteError,
    lazy: async () => ({ Component: (await import('./routes/connect-page.js')).ConnectPage }),
  },
  {
    path: '/sign-in',
    HydrateFallback: Loading,
    ErrorBoundary: RouteError,
    lazy: async () => ({ Component: (await import('./routes/sign-in-page.js')).SignInPage }),
  },
  {
    // A clicked tel: link: on to the live view's click-to-call form, filled in; the connection check happens there.
    path: PHONE_LINK_PATH,
    HydrateFallback: Loading,
    ErrorBoundary: RouteError,
    loader: ({ request }) => {
      const target = phoneLinkTarget(new URL(request.url).search);
      return redirect(target.pathname + target.search);
    },
  },
  {
    element: <RequireConnection />,
    HydrateFallback: Loading,
    ErrorBoundary: RouteError,
    children: [
      {
        path: '/wallboard',
        lazy: async () => ({ Component: (await import('./routes/wallboard-page.js')).WallboardPage }),
      },
      {
        element: <AppLayout />,
        children: [
          {
            element: <RoleLanding />,
            children: [
              {
                index: true,
                ErrorBoundary: PageError,
                lazy: async () => ({ Component: (await import('./routes/live-page.js')).LivePage }),
              },
            ],
          },
          {
            path: '/desk',
            ErrorBoundary: PageError,
            lazy: async () => ({ Component: (await import('./routes/my-desk-page.js')).MyDeskPage }),
          },
          {
            path: '/analytics',
            ErrorBoundary: PageError,
            lazy: async () => ({ Component: (await import('./routes/analytics-page.js')).AnalyticsPage }),
          },
          {
            path: '/reports',
            ErrorBoundary: PageError,
            lazy: async () => ({ Component: (await import('./routes/reports-page.js')).ReportsPage }),
          },
        ],
      },
    ],
  },
  {
    path: '*',
    HydrateFallback: Loading,
    ErrorBoundary: RouteError,
    lazy: async () => ({ Component: (await import('./routes/not-found-page.js')).NotFoundPage }),
  },
]);
