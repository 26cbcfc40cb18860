/** Authorizes a request against one provider: permission first (403), then visibility (404), then whom a call is placed as (403). */
import type { Permission } from '../../contract/me.js';
import type { ProviderScope } from '../../contract/paths.js';
import { canSeeApplication, canSeeProvider, providerKey, type Principal } from '../auth/token-index.js';
import { ApiProblem } from '../http/api-problem.js';
import type { ProviderCall } from '../providers/phone-system.js';
import { selects } from '../queues/queue-selection.js';
import type { ProviderRuntime, ProviderRuntimes } from '../runtime/provider-runtimes.js';
import { resolveQueueSelection } from './queue-filter.js';

/** Who is asking, as a refusal names them: a token, or the signed-in person's roles. */
const asker = (principal: Principal) => (principal.person ? `Your role (${principal.person.roles.join(', ')})` : 'This token');

export const requirePermission = (principal: Principal, ...anyOf: Permission[]): void => {
  if (!anyOf.some((permission) => principal.permissions.has(permission)))
    throw new ApiProblem('forbidden', `${asker(principal)} lacks the ${anyOf.map((p) => `"${p}"`).join(' or ')} permission.`);
};

/** A token, or an admin: what only those who run the service may do (the simulator's faults, say). */
export const requireServiceOperator = (principal: Principal): void => {
  if (principal.person && !principal.person.roles.includes('admin'))
    throw new ApiProblem('forbidden', `${asker(principal)} may not do this: it takes the admin role.`);
};

/** The same 404 whether the provider does not exist or the token may not see it: nothing leaks. */
export const resolveProvider = (registry: ProviderRuntimes, principal: Principal, scope: ProviderScope): ProviderRuntime => {
  const found = canSeeApplication(principal, scope.accountID, scope.applicationID) ? registry.get(scope) : undefined;
  const runtime = found && canSeeProvider(principal, scope, () => found.queueDirectory.queues.map((queue) => queue.id)) ? found : undefined;
  if (!runtime)
    throw new ApiProblem(
      'not_found',
      `No provider "${scope.providerID}" in application "${scope.applicationID}" of account "${scope.accountID}" is visible to this token.`,
    );
  return runtime;
};

const quoted = (ids: ReadonlySet<string>) => [...ids].map((id) => `"${id}"`).join(', ');

/** An agent's token places calls only as its own subscriber(s), a signed-in agent only as theirs at this provider; the refusal names the field to fix. */
export const requireCallerAllowed = (principal: Principal, providerSubscriberID: string, scope: ProviderScope): void => {
  const allowed = principal.person && principal.subscribers !== '*' ? (principal.person.subscribers.get(providerKey(scope)) ?? new Set<string>()) : principal.subscribers;
  if (allowed !== '*' && allowed.size === 0)
    throw new ApiProblem('subscriber_not_allowed', `${asker(principal)} places calls as no subscriber of this provider.`, {
      errors: [{ field: 'providerSubscriberID', message: 'no subscriber here is yours' }],
    });
  if (allowed === '*' || allowed.has(providerSubscriberID)) return;
  const one = allowed.size === 1;
  throw new ApiProblem(
    'subscriber_not_allowed',
    `${asker(principal)} places calls only as ${one ? 'subscriber' : 'subscribers'} ${quoted(allowed)}: providerSubscriberID "${providerSubscriberID}" is not allowed.`,
    { errors: [{ field: 'providerSubscriberID', message: `must be ${one ? '' : 'one of '}${quoted(allowed)} for ${principal.person ? 'you' : 'this token'}` }] },
  );
};

/**
 * A live call someone with `calls:control` acts on (ends, listens to): one the service lists now and
 * this person sees (else 404 `call_not_found`), in a queue they supervise if they are a supervisor
 * (else 403), not ended (else 409 `call_ended`).
 */
export const resolveControlledCall = async (runtime: ProviderRuntime, principal: Principal, callID: string, doing: string): Promise<ProviderCall> => {
  await runtime.sync.ready();
  const call = runtime.sync.live.positioned()?.snapshot.calls.find((known) => known.callID === callID);
  const visible = resolveQueueSelection(runtime, undefined, principal);
  if (!call || (visible && !selects(visible, call))) throw new ApiProblem('call_not_found', `Provider "${runtime.config.name}" lists no call "${callID}" now.`);
  const controls = principal.person?.controlQueues;
  if (controls && (call.queueID === undefined || !controls.has(call.queueID)))
    throw new ApiProblem(
      'forbidden',
      `You may ${doing} only in the queues you supervise (${[...controls].join(', ') || 'none'}): call "${callID}" is ${call.queueID === undefined ? 'in no queue' : `in queue "${call.queueID}"`}.`,
    );
  if (call.endedAt !== undefined) throw new ApiProblem('call_ended', `Call "${callID}" already ended at ${new Date(call.endedAt).toISOString()}.`);
  return call;
};
