/**
 * `/` is the live view; a person whose roles begin elsewhere (an agent at their desk, an analyst at
 * the reports) is taken there, as the sign-in itself does. A token stays: it keeps the live view.
 */
import { Navigate, Outlet, useLocation } from 'react-router';
import { landingOf } from '../../contract/session.js';
import { useConnection } from '../lib/connection-context.js';

export const RoleLanding = () => {
  const { connection } = useConnection();
  const { search } = useLocation();
  const landing = connection?.kind === 'session' ? landingOf(connection.roles) : '/';
  if (landing !== '/') return <Navigate to={{ pathname: landing, search }} replace />;
  return <Outlet />;
};
