/** A wrong method on a known path answers 405 with `Allow` and points to the path that has it. */
import type { FastifyInstance, HTTPMethods } from 'fastify';
import { routePatterns } from '../../contract/paths.js';
import { ApiProblem } from '../http/api-problem.js';

const ALL: HTTPMethods[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

const refuse = (app: FastifyInstance, url: string, allowed: HTTPMethods[], hint: (path: string) => string) => {
  app.route({
    method: ALL.filter((method) => !allowed.includes(method)),
    url,
    handler: async (request) => {
      const path = request.url.split('?')[0] ?? '';
      throw new ApiProblem('method_not_allowed', `${request.method} is not allowed here. ${hint(path)}`, {
        headers: { allow: allowed.join(', ') },
      });
    },
  });
};

export const methodNotAllowedRoutes = async (app: FastifyInstance) => {
  refuse(app, routePatterns.listCalls, ['GET', 'HEAD'], (path) =>
    `To place a call, POST to ${path.replace(/\/provider\/([^/]+)\/calls$/, '/providers/$1/calls')} (plural "providers").`,
  );
  refuse(app, routePatterns.makeCall, ['POST'], (path) =>
    `To list calls, GET ${path.replace(/\/providers\/([^/]+)\/calls$/, '/provider/$1/calls')} (singular "provider").`,
  );
  refuse(app, routePatterns.subscribers, ['GET', 'HEAD'], () => 'The subscriber list is read-only.');
};
