/** The current connection (service and token), sign-in and sign-out; its API client comes from the connection gate (useApi). */
import { useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { forgetConnection, loadConnection, saveConnection, takeTokenFromFragment, type Connection } from './connection.js';

interface ConnectionValue {
  connection: Connection | undefined;
  /** Why the dashboard was signed out without the user asking, e.g. the token was refused. */
  signedOutReason: string | undefined;
  signIn: (connection: Connection) => void;
  signOut: (reason?: string) => void;
}

const ConnectionContext = createContext<ConnectionValue | undefined>(undefined);

/** A one-click link's token wins over a stored one; it is kept for this tab's session only. */
const initialConnection = (): Connection | undefined => {
  const fromLink = takeTokenFromFragment();
  if (fromLink) {
    const connection = { baseURL: '', token: fromLink, remember: false };
    saveConnection(connection);
    return connection;
  }
  return loadConnection();
};

export const ConnectionProvider = ({ children }: { children: ReactNode }) => {
  const queryClient = useQueryClient();
  const [connection, setConnection] = useState<Connection | undefined>(initialConnection);
  const [signedOutReason, setSignedOutReason] = useState<string>();

  const signIn = useCallback(
    (next: Connection) => {
      saveConnection(next);
      queryClient.clear();
      setSignedOutReason(undefined);
      setConnection(next);
    },
    [queryClient],
  );
  const signOut = useCallback(
    (reason?: string) => {
      forgetConnection();
      queryClient.clear();
      setSignedOutReason(reason);
      setConnection(undefined);
    },
    [queryClient],
  );

  const value = useMemo(() => ({ connection, signedOutReason, signIn, signOut }), [connection, signedOutReason, signIn, signOut]);
  return <ConnectionContext.Provider value={value}>{children}</ConnectionContext.Provider>;
};

export const useConnection = (): ConnectionValue => {
  const value = useContext(ConnectionContext);
  if (!value) throw new Error('useConnection needs a ConnectionProvider');
  return value;
};
