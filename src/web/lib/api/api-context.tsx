/** The signed-in API client for everything behind the connection gate: never optional there. */
import { createContext, useContext, useMemo, type ReactNode } from 'react';
import type { Connection } from '../connection.js';
import { ApiClient } from './api-client.js';

const ApiContext = createContext<ApiClient | undefined>(undefined);

/** Rendered by the connection gate once there is a connection; one client per connection. */
export const ApiProvider = ({ connection, children }: { connection: Connection; children: ReactNode }) => {
  const client = useMemo(() => new ApiClient(connection), [connection]);
  return <ApiContext.Provider value={client}>{children}</ApiContext.Provider>;
};

export const useApi = (): ApiClient => {
  const client = useContext(ApiContext);
  if (!client)
    throw new Error(
      'useApi is for components behind the connection gate (RequireConnection), which provides the signed-in API client.',
    );
  return client;
};
