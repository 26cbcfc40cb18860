/** Unauthenticated routes: liveness and the OpenAPI document, assembled from every route's own description. */
import type { FastifyInstance } from 'fastify';
import { paths } from '../../contract/paths.js';
import { buildOpenApiDocument } from '../http/openapi-document.js';
import type { RouteDoc } from '../http/route-catalog.js';

const healthDoc: RouteDoc = {
  operationId: 'health',
  summary: 'Liveness',
  public: true,
  responses: { '200': { description: 'Up' } },
};

const openapiDoc: RouteDoc = {
  operationId: 'openapi',
  summary: 'This document',
  public: true,
  responses: { '200': { description: 'The OpenAPI 3.1 document', content: { type: 'application/json' } } },
};

const readyDoc: RouteDoc = {
  operationId: 'readiness',
  summary: 'Readiness: whether this instance should be sent traffic',
  description:
    'Ready once every provider has a snapshot to serve or a failure to report (the first poll, or in a cluster the first read of the shared sync), and no longer once the instance is shutting down. A load balancer checks it before sending requests.',
  public: true,
  responses: {
    '200': { description: 'Ready; `details` tells of troubles that do not take the instance out of the balancer (a scheduled report whose send failed)' },
    '503': { description: 'Starting or stopping' },
  },
};

/** What /readyz tells besides ready or not: undefined when there is nothing to tell. */
export type ReadinessDetails = () => Record<string, unknown> | undefined;

export const systemRoutes = async (app: FastifyInstance, { ready, details }: { ready: () => boolean; details?: ReadinessDetails }) => {
  let openapi: string | undefined;
  app.get(paths.health(), { config: { doc: healthDoc } }, async () => ({ status: 'ok' }));
  app.get(paths.ready(), { config: { doc: readyDoc } }, async (_request, reply) => {
    const told = details?.();
    const more = told ? { details: told } : {};
    return ready() ? { status: 'ready', ...more } : reply.code(503).send({ status: 'not ready', ...more });
  });
  // Built at the first request, when every route of the app has registered its description.
  app.get(paths.openapi(), { config: { doc: openapiDoc } }, async (_request, reply) => {
    openapi ??= JSON.stringify(buildOpenApiDocument(app.routeCatalog.documented()));
    return reply.type('application/json; charset=utf-8').send(openapi);
  });
};
