/** The queues of one provider (our extension): who waits, who is free, service level against each queue's own target, agents needed now. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { routePatterns, type ProviderScope } from '../../contract/paths.js';
import { QUEUE_DEFINITIONS, queuesResponseSchema, type QueuesResponse } from '../../contract/queues.js';
import { ApiProblem } from '../http/api-problem.js';
import type { RouteDoc } from '../http/route-catalog.js';
import type { ProviderRuntimes } from '../runtime/provider-runtimes.js';
import { visibleQueueFigures } from './queue-filter.js';
import { requirePermission, resolveProvider } from './resolve-provider.js';

const doc: RouteDoc = {
  operationId: 'listQueues',
  summary: "Each queue's live and day figures against its own target, and the agents it needs now (extension)",
  description:
    "One entry per queue of the provider's config, in its order. A call's queue is the phone system's own queue where it tells one and a " +
    "queue lists it in `providerQueues`, else the number the caller dialed matched against a queue's `numbers`; a call keeps the first " +
    'queue it was known in, and outbound calls have none. `today` and `last15Minutes` are the service-level figures (see the ' +
    "service-levels operation for each one's definition) of the queue's calls, with the queue's own `answerWithinSeconds` and " +
    `\`shortAbandonSeconds\`. ${QUEUE_DEFINITIONS.today} ${QUEUE_DEFINITIONS.last15Minutes} now.waiting: ${QUEUE_DEFINITIONS.waiting} ` +
    `now.longestWaitSeconds: ${QUEUE_DEFINITIONS.longestWaitSeconds} now.talking: ${QUEUE_DEFINITIONS.talking} now.agents: ${QUEUE_DEFINITIONS.agents} ` +
    `agentsNeeded: ${QUEUE_DEFINITIONS.agentsNeeded} \`unqueued\` gives the same live and day figures for the inbound calls in no queue ` +
    '(answered within 20 s, short abandons under 5 s). The figures are kept as calls change; an answer is computed at most once a second. ' +
    'Needs `calls:read`.',
  responses: { '200': { description: "The queues' figures", json: queuesResponseSchema } },
  problems: ['forbidden', 'not_found', 'service_busy'],
  otherMethods: () => "The queues are read-only: they are set in the provider's config.",
};

export const queuesRoute = async (app: FastifyInstance, { registry }: { registry: ProviderRuntimes }) => {
  app.get(routePatterns.queues, { config: { doc } }, async (request: FastifyRequest<{ Params: ProviderScope }>): Promise<QueuesResponse> => {
    requirePermission(request.principal, 'calls:read');
    const runtime = resolveProvider(registry, request.principal, request.params);
    try {
      return visibleQueueFigures(runtime, request.principal, await runtime.queues.read());
    } catch (error) {
      throw new ApiProblem('service_busy', `The queues' figures of the day could not be read from the call journal: ${(error as Error).message}`, {
        headers: { 'retry-after': '5' },
      });
    }
  });
};
