/**
 * A token the service refuses (401) signs the dashboard out; the connection page then says why. A
 * session's 401 is the connection's own to handle (it ends the session, whichever request got it).
 */
import { useEffect } from 'react';
import type { ApiError } from '../lib/api/api-error.js';
import { useConnection } from '../lib/connection-context.js';

export const REFUSED_TOKEN_REASON =
  'The service refused the token (it is unknown, mistyped or revoked). Connect again with a valid token.';

export const useRefusedToken = (error: ApiError | undefined): void => {
  const { connection, signOut } = useConnection();
  const refused = error?.code === 'unauthorized' && connection?.kind === 'token';
  useEffect(() => {
    if (refused) signOut(REFUSED_TOKEN_REASON);
  }, [refused, signOut]);
};
