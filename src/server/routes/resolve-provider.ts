/** Authorizes a request against one provider: permission first (403), then visibility (404), then whom a call is placed as (403). */
import type { Permission } from '../../contract/me.js';
import type { ProviderScope } from '../../contract/paths.js';
import { canSeeApplication, type Principal } from '../auth/token-index.js';
import { ApiProblem } from '../http/api-problem.js';
import type { ProviderRuntime, ProviderRuntimes } from '../runtime/provider-runtimes.js';

export const requirePermission = (principal: Principal, ...anyOf: Permission[]): void => {
  if (!anyOf.some((permission) => principal.permissions.has(permission)))
    throw new ApiProblem('forbidden', `This token lacks the ${anyOf.map((p) => `"${p}"`).join(' or ')} permission.`);
};

/** The same 404 whether the provider does not exist or the token may not see it: nothing leaks. */
export const resolveProvider = (registry: ProviderRuntimes, principal: Principal, scope: ProviderScope): ProviderRuntime => {
  const runtime = canSeeApplication(principal, scope.accountID, scope.applicationID) ? registry.get(scope) : undefined;
  if (!runtime)
    throw new ApiProblem(
      'not_found',
      `No provider "${scope.providerID}" in application "${scope.applicationID}" of account "${scope.accountID}" is visible to this token.`,
    );
  return runtime;
};

const quoted = (ids: ReadonlySet<string>) => [...ids].map((id) => `"${id}"`).join(', ');

/** An agent's token places calls only as its own subscriber(s); the refusal names the field to fix. */
export const requireCallerAllowed = (principal: Principal, providerSubscriberID: string): void => {
  const allowed = principal.subscribers;
  if (allowed === '*' || allowed.has(providerSubscriberID)) return;
  const one = allowed.size === 1;
  throw new ApiProblem(
    'subscriber_not_allowed',
    `This token places calls only as ${one ? 'subscriber' : 'subscribers'} ${quoted(allowed)}: providerSubscriberID "${providerSubscriberID}" is not allowed.`,
    { errors: [{ field: 'providerSubscriberID', message: `must be ${one ? '' : 'one of '}${quoted(allowed)} for this token` }] },
  );
};
