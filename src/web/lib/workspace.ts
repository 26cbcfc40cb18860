/**
 * Which account, application and provider(s) the dashboard shows: the choices come from
 * `/v1/me` (or the connection's hand-typed scope), the selection lives in the URL.
 */
import { useQuery } from '@tanstack/react-query';
import { useCallback, useDeferredValue } from 'react';
import { useSearchParams } from 'react-router';
import type { MeResponse, Permission } from '../../contract/me.js';
import type { ProviderScope } from '../../contract/paths.js';
import { useApi } from './api/api-context.js';
import { ApiError } from './api/api-error.js';
import { meQueryOptions } from './api/me-query.js';

export const ALL_PROVIDERS = 'all';

export interface ProviderChoice {
  id: string;
  name: string;
  type: string;
  /** Whether the provider can end a live call (the token also needs calls:control). */
  canEndCalls: boolean;
}

export interface Workspace {
  accountID: string;
  accountName: string;
  applications: { id: string; name: string }[];
  applicationID: string;
  providers: ProviderChoice[];
  /** A provider ID, or "all". */
  provider: string;
  /** The providers on screen: one, or every provider of the application. */
  scopes: ProviderScope[];
  permissions: Permission[];
  /** An agent's token: the only subscribers it places calls as. Undefined: any subscriber. */
  subscriberIDs?: string[];
}

export type WorkspaceState =
  | { status: 'pending' }
  | { status: 'error'; error: ApiError }
  | { status: 'ready'; workspace: Workspace; select: (choice: { app?: string; provider?: string }) => void };

const fromMe = (me: MeResponse, app: string | null, provider: string | null) => {
  const application = me.applications.find((a) => a.id === app) ?? me.applications[0];
  const providers = application?.providers ?? [];
  const chosen = provider === ALL_PROVIDERS || providers.some((p) => p.id === provider) ? (provider as string) : (providers[0]?.id ?? '');
  return { account: me.account, applications: me.applications, application, providers, chosen, permissions: me.permissions, subscriberIDs: me.subscriberIDs };
};

export const useWorkspace = (): WorkspaceState => {
  const client = useApi();
  const [params, setParams] = useSearchParams();
  const manual = client.connection.manualScope;
  const me = useQuery(meQueryOptions(client));
  // The page under the workspace is built in a render React may interrupt: built in one piece,
  // that first build is the longest task between the first paint and the first data.
  const data = useDeferredValue(me.data);

  const select = useCallback(
    (choice: { app?: string; provider?: string }) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          if (choice.app !== undefined) {
            next.set('app', choice.app);
            next.delete('provider');
          }
          if (choice.provider !== undefined) next.set('provider', choice.provider);
          return next;
        },
        { replace: false },
      ),
    [setParams],
  );

  if (manual) {
    const providers = manual.providerIDs.map((id) => ({ id, name: id, type: 'unknown', canEndCalls: false }));
    const requested = params.get('provider');
    const provider = requested === ALL_PROVIDERS || manual.providerIDs.includes(requested ?? '') ? (requested as string) : (manual.providerIDs[0] ?? '');
    const ids = provider === ALL_PROVIDERS ? manual.providerIDs : [provider];
    return {
      status: 'ready',
      select,
      workspace: {
        accountID: manual.accountID,
        accountName: manual.accountID,
        applications: [{ id: manual.applicationID, name: manual.applicationID }],
        applicationID: manual.applicationID,
        providers,
        provider,
        scopes: ids.map((providerID) => ({ accountID: manual.accountID, applicationID: manual.applicationID, providerID })),
        permissions: ['calls:read', 'calls:write'],
      },
    };
  }
  if (me.isError) return { status: 'error', error: me.error };
  if (data === undefined) return { status: 'pending' };
  const picked = fromMe(data, params.get('app'), params.get('provider'));
  if (!picked.application)
    return { status: 'error', error: new ApiError('not_found', 'This token may not see any application.') };
  const ids = picked.chosen === ALL_PROVIDERS ? picked.providers.map((p) => p.id) : [picked.chosen];
  return {
    status: 'ready',
    select,
    workspace: {
      accountID: picked.account.id,
      accountName: picked.account.name,
      applications: picked.applications.map(({ id, name }) => ({ id, name })),
      applicationID: picked.application.id,
      providers: picked.providers,
      provider: picked.chosen,
      scopes: ids.map((providerID) => ({ accountID: picked.account.id, applicationID: picked.application!.id, providerID })),
      permissions: picked.permissions,
      subscriberIDs: picked.subscriberIDs,
    },
  };
};
