/** The part every per-provider query key shares, after its resource: which service, then which provider. */
import type { ProviderScope } from '../../../contract/paths.js';

export const providerKey = (baseURL: string, scope: ProviderScope) =>
  [baseURL, scope.accountID, scope.applicationID, scope.providerID] as const;
