/** Routes: the live view, the wallboard and the connection page; pages load lazily. */
import { createBrowserRouter } from 'react-router';
import { AppLayout } from './app-layout.js';
import { RequireConnection } from './require-connection.js';

export const router = createBrowserRouter([
  {
    path: '/connect',
    lazy: async () => ({ Component: (await import('./routes/connect-page.js')).ConnectPage }),
  },
  {
    element: <RequireConnection />,
    children: [
      {
        path: '/wallboard',
        lazy: async () => ({ Component: (await import('./routes/wallboard-page.js')).WallboardPage }),
      },
      {
        element: <AppLayout />,
        children: [{ index: true, lazy: async () => ({ Component: (await import('./routes/live-page.js')).LivePage }) }],
      },
    ],
  },
  { path: '*', lazy: async () => ({ Component: (await import('./routes/not-found-page.js')).NotFoundPage }) },
]);
