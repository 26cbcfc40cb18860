/** Unauthenticated routes: liveness and the OpenAPI document. */
import type { FastifyInstance } from 'fastify';
import { paths } from '../../contract/paths.js';
import { buildOpenApiDocument } from '../http/openapi-document.js';

export const systemRoutes = async (app: FastifyInstance) => {
  const openapi = JSON.stringify(buildOpenApiDocument());
  app.get(paths.health(), async () => ({ status: 'ok' }));
  app.get(paths.openapi(), async (_request, reply) => reply.type('application/json; charset=utf-8').send(openapi));
};
