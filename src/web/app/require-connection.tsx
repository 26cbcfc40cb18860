/** Pages below need a connection; without one, the connection page. */
import { Navigate, Outlet, useLocation } from 'react-router';
import { useConnection } from '../lib/connection-context.js';

export const RequireConnection = () => {
  const { connection } = useConnection();
  const location = useLocation();
  if (!connection) return <Navigate to="/connect" replace state={{ from: location.pathname + location.search }} />;
  return <Outlet />;
};
