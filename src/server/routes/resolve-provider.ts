/** Authorizes a request against one provider: permission first (403), then visibility (404). */
import type { Permission } from '../../contract/me.js';
import type { ProviderScope } from '../../contract/paths.js';
import { canSeeApplication, type Principal } from '../auth/token-index.js';
import { ApiProblem } from '../http/api-problem.js';
import type { ProviderRegistry, ProviderRuntime } from '../providers/provider-registry.js';

export const requirePermission = (principal: Principal, ...anyOf: Permission[]): void => {
  if (!anyOf.some((permission) => principal.permissions.has(permission)))
    throw new ApiProblem('forbidden', `This token lacks the ${anyOf.map((p) => `"${p}"`).join(' or ')} permission.`);
};

/** The same 404 whether the provider does not exist or the token may not see it: nothing leaks. */
export const resolveProvider = (registry: ProviderRegistry, principal: Principal, scope: ProviderScope): ProviderRuntime => {
  const runtime = canSeeApplication(principal, scope.accountID, scope.applicationID) ? registry.get(scope) : undefined;
  if (!runtime)
    throw new ApiProblem(
      'not_found',
      `No provider "${scope.providerID}" in application "${scope.applicationID}" of account "${scope.accountID}" is visible to this token.`,
    );
  return runtime;
};
