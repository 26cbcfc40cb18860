/** Routes: the live view, analytics, the wallboard and the connection page; pages load lazily. */
import { createBrowserRouter } from 'react-router';
import { AppLayout } from './app-layout.js';
import { RequireConnection } from './require-connection.js';

const Loading = () => <p className="p-6 text-muted">Loading…</p>;

export const router = createBrowserRouter([
  {
    path: '/connect',
    HydrateFallback: Loading,
    lazy: async () => ({ Component: (await import('./routes/connect-page.js')).ConnectPage }),
  },
  {
    element: <RequireConnection />,
    HydrateFallback: Loading,
    children: [
      {
        path: '/wallboard',
        lazy: async () => ({ Component: (await import('./routes/wallboard-page.js')).WallboardPage }),
      },
      {
        element: <AppLayout />,
        children: [
          { index: true, lazy: async () => ({ Component: (await import('./routes/live-page.js')).LivePage }) },
          { path: '/analytics', lazy: async () => ({ Component: (await import('./routes/analytics-page.js')).AnalyticsPage }) },
        ],
      },
    ],
  },
  { path: '*', HydrateFallback: Loading, lazy: async () => ({ Component: (await import('./routes/not-found-page.js')).NotFoundPage }) },
]);
