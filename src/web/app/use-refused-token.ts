/** A token the service refuses (401) signs the dashboard out and lands on the connection page, saying why. */
import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import type { ApiError } from '../lib/api/api-error.js';
import { useConnection } from '../lib/connection-context.js';

export const useRefusedToken = (error: ApiError | undefined): void => {
  const { signOut } = useConnection();
  const navigate = useNavigate();
  const location = useLocation();
  const refused = error?.code === 'unauthorized';
  useEffect(() => {
    if (!refused) return;
    navigate('/connect', {
      replace: true,
      state: {
        from: location.pathname + location.search,
        reason: 'The service refused the token (it is unknown, mistyped or revoked). Connect again with a valid token.',
      },
    });
    signOut();
  }, [refused, navigate, signOut, location.pathname, location.search]);
};
