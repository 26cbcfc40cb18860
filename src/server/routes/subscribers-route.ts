/** The provider's subscribers, for the click-to-call picker (our extension of the spec). */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { routePatterns, type ProviderScope } from '../../contract/paths.js';
import type { ListSubscribersResponse } from '../../contract/subscriber.js';
import { callWithDeadline } from '../providers/call-with-deadline.js';
import { providerProblem } from '../providers/provider-problem.js';
import type { ProviderRegistry } from '../providers/provider-registry.js';
import { requirePermission, resolveProvider } from './resolve-provider.js';

const byName = (a: { lastName: string; firstName: string }, b: { lastName: string; firstName: string }) =>
  a.lastName.localeCompare(b.lastName) || a.firstName.localeCompare(b.firstName);

export const subscribersRoute = async (app: FastifyInstance, { registry }: { registry: ProviderRegistry }) => {
  app.get(routePatterns.subscribers, async (request: FastifyRequest<{ Params: ProviderScope }>): Promise<ListSubscribersResponse> => {
    requirePermission(request.principal, 'calls:read', 'calls:write');
    const runtime = resolveProvider(registry, request.principal, request.params);
    try {
      const subscribers = await callWithDeadline(runtime.config.requestTimeoutMs, (signal) => runtime.phoneSystem.listSubscribers(signal));
      return { subscribers: [...subscribers].sort(byName) };
    } catch (error) {
      throw providerProblem(error, runtime.config.name);
    }
  });
};
