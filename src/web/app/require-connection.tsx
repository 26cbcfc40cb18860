/**
 * Pages below need a connection: they get its API client (useApi), never an optional one. Without
 * one, the connection page, in the theme of the page it leads back to.
 */
import { Navigate, Outlet, useLocation } from 'react-router';
import { ApiProvider } from '../lib/api/api-context.js';
import { useConnection } from '../lib/connection-context.js';
import { themeForAddress } from '../lib/theme.js';

export const RequireConnection = () => {
  const { connection } = useConnection();
  const location = useLocation();
  if (connection)
    return (
      <ApiProvider connection={connection}>
        <Outlet />
      </ApiProvider>
    );
  // A wall screen without a token stays dark on the connection page: no white flash across the room.
  const theme = themeForAddress(location.pathname, location.search);
  return (
    <Navigate
      to={{ pathname: '/connect', search: theme ? `?theme=${theme}` : '' }}
      replace
      state={{ from: location.pathname + location.search }}
    />
  );
};
