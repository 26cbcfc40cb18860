/** The agent board of one provider (our extension): each subscriber's state and today's figures. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AGENT_STATE_DEFINITIONS, listAgentsQuerySchema, listAgentsResponseSchema, totalsOf, type ListAgentsResponse } from '../../contract/agents.js';
import { zodProblem } from '../http/zod-problem.js';
import { QUEUE_ID_PARAMETER, resolveQueueSelection } from './queue-filter.js';
import { routePatterns, type ProviderScope } from '../../contract/paths.js';
import type { RouteDoc } from '../http/route-catalog.js';
import type { ProviderRuntimes } from '../runtime/provider-runtimes.js';
import { requirePermission, resolveProvider } from './resolve-provider.js';

const states = Object.entries(AGENT_STATE_DEFINITIONS)
  .map(([state, meaning]) => `\`${state}\`: ${meaning}.`)
  .join(' ');

const doc: RouteDoc = {
  operationId: 'listAgents',
  summary: "Each subscriber's state and today's figures: the agent board (extension)",
  description:
    "Derived by the service from the provider's subscribers (registration, active) and its live calls, nothing else. " +
    `${states} A live call decides whatever the registration says (a registration may lapse during a call). ` +
    "`callsToday`, `missedToday` and `talkSecondsToday` count the calls that started since `dayStart` (midnight in the service's " +
    '`timeZone`) and rang or reached the subscriber, from the call journal, recounted about every 10 s while calls change ' +
    '(`figuresAt`); talk time counts a call in progress up to then. Agents in the order the provider lists its subscribers. ' +
    'The change stream carries the same board as `agents` and `agent-changes` events for a client that asks for them ' +
    '(`include=agents`). Needs `calls:read`.',
  parameters: [
    {
      ...QUEUE_ID_PARAMETER,
      description: `Extension: only the members of this queue, of several (comma-separated), or \`none\` for the agents in no queue; \`totals\` count those. A queue the provider's config does not have is a 404 naming it.`,
    },
  ],
  responses: { '200': { description: 'The board', json: listAgentsResponseSchema } },
  problems: ['forbidden', 'not_found', 'invalid_request', 'provider_unavailable'],
  otherMethods: () => 'The agent board is read-only.',
};

export const agentsRoute = async (app: FastifyInstance, { registry }: { registry: ProviderRuntimes }) => {
  app.get(routePatterns.agents, { config: { doc } }, async (request: FastifyRequest<{ Params: ProviderScope }>): Promise<ListAgentsResponse> => {
    requirePermission(request.principal, 'calls:read');
    const runtime = resolveProvider(registry, request.principal, request.params);
    const query = listAgentsQuerySchema.safeParse(request.query ?? {});
    if (!query.success) throw zodProblem('invalid_request', 'The query is not valid', query.error, 'is not a known query parameter');
    const queues = resolveQueueSelection(runtime, query.data.queueID, request.principal);
    await runtime.agents.ready();
    const read = runtime.agents.read();
    if (!read.ok) throw read.failure;
    if (!queues) return read.board;
    const members = new Set([...queues.ids.flatMap((id) => runtime.queueDirectory.get(id)?.members ?? []), ...(queues.subscribers ?? [])]);
    const queued = new Set(runtime.queueDirectory.queues.flatMap((queue) => queue.members));
    const agents = read.board.agents.filter((agent) => members.has(agent.subscriberID) || (queues.none && !queued.has(agent.subscriberID)));
    return { ...read.board, agents, totals: totalsOf(agents) };
  });
};
