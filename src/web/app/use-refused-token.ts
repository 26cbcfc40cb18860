/** A token the service refuses (401) signs the dashboard out; the connection page then says why. */
import { useEffect } from 'react';
import type { ApiError } from '../lib/api/api-error.js';
import { useConnection } from '../lib/connection-context.js';

export const REFUSED_TOKEN_REASON =
  'The service refused the token (it is unknown, mistyped or revoked). Connect again with a valid token.';

export const useRefusedToken = (error: ApiError | undefined): void => {
  const { signOut } = useConnection();
  const refused = error?.code === 'unauthorized';
  useEffect(() => {
    if (refused) signOut(REFUSED_TOKEN_REASON);
  }, [refused, signOut]);
};
