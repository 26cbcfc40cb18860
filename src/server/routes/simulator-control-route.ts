/**
 * Fault injection for simulated providers whose config enables it (`settings.control`): make the
 * phone system fail, stall or recover, to rehearse outages and to test the dashboard against them.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { routePatterns, type ProviderScope } from '../../contract/paths.js';
import { nextPlacedCallSchema, simulatorFailureSchema } from '../../contract/simulator-control.js';
import { ApiProblem } from '../http/api-problem.js';
import { zodProblem } from '../http/zod-problem.js';
import type { ProviderRegistry } from '../providers/provider-registry.js';
import { isPhoneSystemSimulator } from '../providers/simulator/phone-system-simulator.js';
import { requirePermission, resolveProvider } from './resolve-provider.js';

type ScopeRequest = FastifyRequest<{ Params: ProviderScope }>;

const controllableSimulator = (registry: ProviderRegistry, request: ScopeRequest) => {
  requirePermission(request.principal, 'calls:write');
  const runtime = resolveProvider(registry, request.principal, request.params);
  const phoneSystem = runtime.phoneSystem;
  if (runtime.config.type !== 'simulator' || !runtime.config.settings.control || !isPhoneSystemSimulator(phoneSystem))
    throw new ApiProblem('not_found', `Provider "${runtime.config.id}" does not accept fault injection.`);
  return { control: phoneSystem.control, providerID: runtime.config.id };
};

export const simulatorControlRoute = async (app: FastifyInstance, { registry }: { registry: ProviderRegistry }) => {
  app.put(routePatterns.simulatorFailure, async (request: ScopeRequest, reply) => {
    const { control, providerID } = controllableSimulator(registry, request);
    const body = simulatorFailureSchema.safeParse(request.body);
    if (!body.success) throw zodProblem('validation_failed', 'The failure request is not valid', body.error);
    control.setFailure(body.data.mode);
    request.log.warn({ provider: providerID, mode: body.data.mode }, 'simulated provider failure set');
    return reply.code(204).send();
  });

  app.put(routePatterns.simulatorNextPlacedCall, async (request: ScopeRequest, reply) => {
    const { control } = controllableSimulator(registry, request);
    const body = nextPlacedCallSchema.safeParse(request.body);
    if (!body.success) throw zodProblem('validation_failed', 'The call script is not valid', body.error);
    control.scriptNextPlacedCall(body.data);
    return reply.code(204).send();
  });
};
