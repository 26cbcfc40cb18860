/** A route that reads a JSON body refuses any other kind by name, before it looks at the body. */
import type { FastifyRequest } from 'fastify';
import { ApiProblem } from './api-problem.js';

export const requireJsonBody = (request: FastifyRequest): void => {
  if (!/^application\/json\s*(;|$)/i.test(request.headers['content-type'] ?? ''))
    throw new ApiProblem('unsupported_media_type', 'The request body must be JSON: send "content-type: application/json".');
};
