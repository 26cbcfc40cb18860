/** The provider's subscribers, for the click-to-call picker (our extension of the spec). */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { routePatterns, type ProviderScope } from '../../contract/paths.js';
import { listSubscribersResponseSchema, type ListSubscribersResponse } from '../../contract/subscriber.js';
import type { RouteDoc } from '../http/route-catalog.js';
import type { ProviderRuntimes } from '../runtime/provider-runtimes.js';
import { visibleSubscribers } from './queue-filter.js';
import { requirePermission, resolveProvider } from './resolve-provider.js';

const byName = (a: { lastName: string; firstName: string }, b: { lastName: string; firstName: string }) =>
  a.lastName.localeCompare(b.lastName) || a.firstName.localeCompare(b.firstName);

const subscribersDoc: RouteDoc = {
  operationId: 'listSubscribers',
  summary: "The provider's subscribers (extension)",
  responses: { '200': { description: 'Subscribers by last name', json: listSubscribersResponseSchema } },
  problems: ['forbidden', 'not_found', 'provider_error', 'provider_unavailable', 'provider_timeout'],
  otherMethods: () => 'The subscriber list is read-only.',
};

export const subscribersRoute = async (app: FastifyInstance, { registry }: { registry: ProviderRuntimes }) => {
  app.get(
    routePatterns.subscribers,
    { config: { doc: subscribersDoc } },
    async (request: FastifyRequest<{ Params: ProviderScope }>): Promise<ListSubscribersResponse> => {
      requirePermission(request.principal, 'calls:read', 'calls:write');
      const runtime = resolveProvider(registry, request.principal, request.params);
      const visible = visibleSubscribers(runtime, request.principal);
      const subscribers = await runtime.listSubscribers();
      return { subscribers: subscribers.filter((subscriber) => visible?.has(subscriber.providerSubscriberID) ?? true).sort(byName) };
    },
  );
};
