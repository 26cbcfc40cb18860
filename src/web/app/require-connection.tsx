/**
 * Pages below need a connection: they get its API client (useApi), never an optional one. Without
 * one, the company's sign-in where the service offers it, else the connection page, in the theme
 * of the page they lead back to.
 */
import { Navigate, Outlet, useLocation } from 'react-router';
import { ApiProvider } from '../lib/api/api-context.js';
import { useConnection } from '../lib/connection-context.js';
import { themeForAddress } from '../lib/theme.js';

/** `/sign-in`'s address for a page the person wanted: where to come back to, and the page's theme. */
const signInSearch = (returnTo: string, theme: string | undefined): string => {
  const params = new URLSearchParams({ returnTo });
  if (theme) params.set('theme', theme);
  return `?${params.toString()}`;
};

export const RequireConnection = () => {
  const { connection, checking, signInOffer } = useConnection();
  const location = useLocation();
  if (connection)
    return (
      <ApiProvider connection={connection}>
        <Outlet />
      </ApiProvider>
    );
  if (checking)
    return (
      <p role="status" className="p-6 text-muted">
        Checking your sign-in…
      </p>
    );
  // A wall screen signed out stays dark on the page that signs it in again: no white flash across the room.
  const theme = themeForAddress(location.pathname, location.search);
  const from = location.pathname + location.search;
  if (signInOffer) return <Navigate to={{ pathname: '/sign-in', search: signInSearch(from, theme) }} replace />;
  return <Navigate to={{ pathname: '/connect', search: theme ? `?theme=${theme}` : '' }} replace state={{ from }} />;
};
