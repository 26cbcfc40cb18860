/**
 * The current connection, a token's or a signed-in person's session; connecting with a token and
 * signing out. Its API client comes from the connection gate (useApi).
 *
 * At start-up a one-click link's token, or a stored one, wins; otherwise the service is asked
 * whether this browser is signed in. A session's connection is read from that answer, never
 * stored, and ends at the first 401 any request of it gets.
 */
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { sessionConnectionOf, sessionQueryOptions } from './api/auth-session.js';
import { ApiError } from './api/api-error.js';
import { forgetConnection, loadConnection, saveConnection, takeTokenFromFragment, type Connection, type TokenConnection } from './connection.js';

export const SESSION_ENDED_REASON = 'Your session ended; sign in again.';

interface ConnectionValue {
  connection: Connection | undefined;
  /** While the service is asked whether this browser is signed in: neither a page nor a sign-in to show yet. */
  checking: boolean;
  /** The company's sign-in, where the service offers one and this browser is not signed in. */
  signInOffer: { label: string } | undefined;
  /** Why the dashboard was signed out without the user asking, e.g. the token was refused or the session ended. */
  signedOutReason: string | undefined;
  signIn: (connection: TokenConnection) => void;
  signOut: (reason?: string) => void;
}

const ConnectionContext = createContext<ConnectionValue | undefined>(undefined);

interface ConnectionState {
  token: TokenConnection | undefined;
  /** At start-up without a token, and once a session ended; not after a token is signed out, which leads to the connection page as it did. */
  asksSession: boolean;
  signedOutReason: string | undefined;
}

/** A one-click link's token wins over a stored one; it is kept for this tab's session only. */
const initialState = (): ConnectionState => {
  const fromLink = takeTokenFromFragment();
  if (fromLink) {
    const connection: TokenConnection = { kind: 'token', baseURL: '', token: fromLink, remember: false };
    saveConnection(connection);
    return { token: connection, asksSession: false, signedOutReason: undefined };
  }
  const stored = loadConnection();
  return { token: stored, asksSession: stored === undefined, signedOutReason: undefined };
};

const isSessionEnd = (error: unknown): boolean => error instanceof ApiError && (error.code === 'unauthorized' || error.status === 401);
const isStaleCsrf = (error: unknown): boolean => error instanceof ApiError && error.code === 'csrf_failed';

/** The first 401 of any query or mutation ends a session: whichever page is open, it goes to the sign-in. */
const useSessionEnd = (queryClient: QueryClient, connection: Connection | undefined, onEnd: () => void) =>
  useEffect(() => {
    if (connection?.kind !== 'session') return undefined;
    let ended = false;
    const end = (error: unknown) => {
      if (ended || !isSessionEnd(error)) return;
      ended = true;
      onEnd();
    };
    const stopQueries = queryClient.getQueryCache().subscribe((event) => {
      if (event.type === 'updated' && (event.action.type === 'error' || event.action.type === 'failed')) end(event.action.error);
    });
    const stopMutations = queryClient.getMutationCache().subscribe((event) => {
      if (event.type !== 'updated' || event.action.type !== 'error') return;
      end(event.action.error);
      // Signed out and in again in another tab: this tab holds the old session's CSRF token (and person). Ask again.
      if (isStaleCsrf(event.action.error)) void queryClient.refetchQueries({ queryKey: sessionQueryOptions().queryKey });
    });
    return () => {
      stopQueries();
      stopMutations();
    };
  }, [queryClient, connection, onEnd]);

export const ConnectionProvider = ({ children }: { children: ReactNode }) => {
  const queryClient = useQueryClient();
  const [state, setState] = useState<ConnectionState>(initialState);
  const { token, asksSession, signedOutReason } = state;
  const session = useQuery({ ...sessionQueryOptions(), enabled: asksSession && token === undefined });
  const sessionConnection = useMemo(() => (session.data?.signedIn ? sessionConnectionOf(session.data) : undefined), [session.data]);
  const connection: Connection | undefined = token ?? sessionConnection;
  const checking = token === undefined && asksSession && session.isPending;
  const signInOffer = token === undefined && asksSession && session.data?.signedIn === false ? session.data.signIn : undefined;

  const signIn = useCallback(
    (next: TokenConnection) => {
      saveConnection(next);
      queryClient.clear();
      setState({ token: next, asksSession: false, signedOutReason: undefined });
    },
    [queryClient],
  );
  const signOut = useCallback(
    (reason?: string) => {
      const wasSession = connection?.kind === 'session';
      forgetConnection();
      queryClient.clear();
      // A session that ended leaves the cookie's answer to the service: signed out, with its sign-in, or signed in again meanwhile.
      if (wasSession) void queryClient.prefetchQuery(sessionQueryOptions());
      setState({ token: undefined, asksSession: wasSession, signedOutReason: reason });
    },
    [queryClient, connection],
  );
  const endSession = useCallback(() => signOut(SESSION_ENDED_REASON), [signOut]);
  useSessionEnd(queryClient, connection, endSession);

  const value = useMemo(
    () => ({ connection, checking, signInOffer, signedOutReason, signIn, signOut }),
    [connection, checking, signInOffer, signedOutReason, signIn, signOut],
  );
  return <ConnectionContext.Provider value={value}>{children}</ConnectionContext.Provider>;
};

export const useConnection = (): ConnectionValue => {
  const value = useContext(ConnectionContext);
  if (!value) throw new Error('useConnection needs a ConnectionProvider');
  return value;
};
