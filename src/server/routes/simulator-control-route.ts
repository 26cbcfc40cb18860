/**
 * Drills for providers that offer them (the `control` capability, which a simulator has when its
 * config sets `settings.control`): make the phone system fail, stall or recover, and script the
 * next placed call, to rehearse outages and to test the dashboard against them.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { routePatterns, type ProviderScope } from '../../contract/paths.js';
import { nextPlacedCallSchema, simulatorFailureSchema } from '../../contract/simulator-control.js';
import { ApiProblem } from '../http/api-problem.js';
import type { RouteDoc } from '../http/route-catalog.js';
import { zodProblem } from '../http/zod-problem.js';
import type { ProviderRuntimes } from '../runtime/provider-runtimes.js';
import { requirePermission, requireServiceOperator, resolveProvider } from './resolve-provider.js';

type ScopeRequest = FastifyRequest<{ Params: ProviderScope }>;

const controllable = (registry: ProviderRuntimes, request: ScopeRequest) => {
  requirePermission(request.principal, 'calls:write');
  requireServiceOperator(request.principal);
  const runtime = resolveProvider(registry, request.principal, request.params);
  const control = runtime.phoneSystem.control;
  if (!control) throw new ApiProblem('not_found', `Provider "${runtime.config.id}" does not accept fault injection.`);
  return { control, providerID: runtime.config.id };
};

const controlProblems: RouteDoc['problems'] = ['forbidden', 'not_found', 'validation_failed'];

const failureDoc: RouteDoc = {
  operationId: 'setSimulatorFailure',
  summary: 'Make a simulated provider fail, stall or recover (extension)',
  description: 'Only for simulator providers whose config sets `settings.control`; others answer 404.',
  body: simulatorFailureSchema,
  responses: { '204': { description: 'Set' } },
  problems: controlProblems,
};

const nextPlacedCallDoc: RouteDoc = {
  operationId: 'scriptNextPlacedCall',
  summary: 'How the next call placed through a simulated provider goes (extension)',
  description: 'Only for simulator providers whose config sets `settings.control`. Times are simulated milliseconds.',
  body: nextPlacedCallSchema,
  responses: { '204': { description: 'Scripted' } },
  problems: controlProblems,
};

export const simulatorControlRoute = async (app: FastifyInstance, { registry }: { registry: ProviderRuntimes }) => {
  app.put(routePatterns.simulatorFailure, { config: { doc: failureDoc } }, async (request: ScopeRequest, reply) => {
    const { control, providerID } = controllable(registry, request);
    const body = simulatorFailureSchema.safeParse(request.body);
    if (!body.success) throw zodProblem('validation_failed', 'The failure request is not valid', body.error);
    await control.setFailure(body.data.mode);
    request.log.warn({ provider: providerID, mode: body.data.mode }, 'simulated provider failure set');
    return reply.code(204).send();
  });

  app.put(routePatterns.simulatorNextPlacedCall, { config: { doc: nextPlacedCallDoc } }, async (request: ScopeRequest, reply) => {
    const { control } = controllable(registry, request);
    const body = nextPlacedCallSchema.safeParse(request.body);
    if (!body.success) throw zodProblem('validation_failed', 'The call script is not valid', body.error);
    await control.scriptNextPlacedCall(body.data);
    return reply.code(204).send();
  });
};
