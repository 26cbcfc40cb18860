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

export const systemRoutes = async (app: FastifyInstance) => {
  let openapi: string | undefined;
  app.get(paths.health(), { config: { doc: healthDoc } }, async () => ({ status: 'ok' }));
  // Built at the first request, when every route of the app has registered its description.
  app.get(paths.openapi(), { config: { doc: openapiDoc } }, async (_request, reply) => {
    openapi ??= JSON.stringify(buildOpenApiDocument(app.routeCatalog.documented()));
    return reply.type('application/json; charset=utf-8').send(openapi);
  });
};
