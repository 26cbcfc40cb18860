/**
 * Which account, application and provider(s) the dashboard shows: the choices come from
 * `/v1/me` (or the connection's hand-typed scope), the selection lives in the URL.
 */
import { useQuery } from '@tanstack/react-query';
import { useCallback, useDeferredValue, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import type { MeResponse, Permission } from '../../contract/me.js';
import type { ProviderScope } from '../../contract/paths.js';
import { useApi } from './api/api-context.js';
import { ApiError } from './api/api-error.js';
import { manualScopeOf, type ManualScope } from './connection.js';
import { meQueryOptions } from './api/me-query.js';

export const ALL_PROVIDERS = 'all';

export interface ProviderChoice {
  id: string;
  name: string;
  type: string;
  /** Whether the provider can end a live call (the token also needs calls:control). */
  canEndCalls: boolean;
  /** Whether a supervisor can listen silently to a live call there (also with calls:control). */
  canListen: boolean;
  /** Whether a subscriber's browser can be their phone there. */
  softphone: boolean;
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
  /** An agent's token or session: the only subscribers it places calls as. Undefined: any subscriber. */
  subscriberIDs?: string[];
}

export type WorkspaceState =
  | { status: 'pending' }
  | { status: 'error'; error: ApiError }
  | { status: 'ready'; workspace: Workspace; select: (choice: { app?: string; provider?: string }) => void };

/**
 * A token's `calls:read` includes `calls:export`, whether or not the service lists it (one from
 * before the export had its own permission does not); a person exports only with the role for it.
 */
const permissionsOf = (me: MeResponse): Permission[] =>
  me.person === undefined && me.permissions.includes('calls:read') && !me.permissions.includes('calls:export')
    ? [...me.permissions, 'calls:export']
    : me.permissions;

const fromMe = (me: MeResponse, app: string | null, provider: string | null) => {
  const application = me.applications.find((a) => a.id === app) ?? me.applications[0];
  const providers = application?.providers ?? [];
  const chosen = provider === ALL_PROVIDERS || providers.some((p) => p.id === provider) ? (provider as string) : (providers[0]?.id ?? '');
  return { account: me.account, applications: me.applications, application, providers, chosen, permissions: permissionsOf(me), subscriberIDs: me.subscriberIDs };
};

/** The workspace of a hand-typed scope: every permission is the service's to refuse. */
const manualWorkspace = (manual: ManualScope, requested: string | null): Workspace => {
  const providers = manual.providerIDs.map((id) => ({ id, name: id, type: 'unknown', canEndCalls: false, canListen: false, softphone: false }));
  const provider = requested === ALL_PROVIDERS || manual.providerIDs.includes(requested ?? '') ? (requested as string) : (manual.providerIDs[0] ?? '');
  const ids = provider === ALL_PROVIDERS ? manual.providerIDs : [provider];
  return {
    accountID: manual.accountID,
    accountName: manual.accountID,
    applications: [{ id: manual.applicationID, name: manual.applicationID }],
    applicationID: manual.applicationID,
    providers,
    provider,
    scopes: ids.map((providerID) => ({ accountID: manual.accountID, applicationID: manual.applicationID, providerID })),
    permissions: ['calls:read', 'calls:write', 'calls:export'],
  };
};

/** The workspace `/v1/me` allows for the URL's choice, or why there is none. */
const meWorkspace = (me: MeResponse, app: string | null, requested: string | null): Workspace | ApiError => {
  const picked = fromMe(me, app, requested);
  if (!picked.application) return new ApiError('not_found', 'This token may not see any application.');
  const applicationID = picked.application.id;
  const ids = picked.chosen === ALL_PROVIDERS ? picked.providers.map((p) => p.id) : [picked.chosen];
  return {
    accountID: picked.account.id,
    accountName: picked.account.name,
    applications: picked.applications.map(({ id, name }) => ({ id, name })),
    applicationID,
    providers: picked.providers,
    provider: picked.chosen,
    scopes: ids.map((providerID) => ({ accountID: picked.account.id, applicationID, providerID })),
    permissions: picked.permissions,
    subscriberIDs: picked.subscriberIDs,
  };
};

export const useWorkspace = (): WorkspaceState => {
  const client = useApi();
  const [params, setParams] = useSearchParams();
  const manual = manualScopeOf(client.connection);
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

  // The same objects while the choice stays put: the URL also holds the table's sort, filters and
  // search, and a keystroke there must not hand every panel a new workspace and new scopes.
  const app = params.get('app');
  const requested = params.get('provider');
  const built = useMemo(
    () => (manual ? manualWorkspace(manual, requested) : data === undefined ? undefined : meWorkspace(data, app, requested)),
    [manual, data, app, requested],
  );

  if (manual) return { status: 'ready', select, workspace: built as Workspace };
  if (me.isError) return { status: 'error', error: me.error };
  if (built === undefined) return { status: 'pending' };
  if (built instanceof ApiError) return { status: 'error', error: built };
  return { status: 'ready', select, workspace: built };
};
