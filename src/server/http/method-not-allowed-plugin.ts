/**
 * A wrong method on a known path answers 405 with `Allow`, and the route's own hint of where that
 * method is served. Registered after every route, from the route catalog: no second list of paths.
 */
import type { FastifyInstance, HTTPMethods } from 'fastify';
import { ApiProblem } from './api-problem.js';
import type { HiddenRoute } from './route-catalog.js';

const ALL: HTTPMethods[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
const HIDDEN: HiddenRoute = { hidden: 'the 405 answer for methods this path does not serve' };

export const methodNotAllowedPlugin = async (app: FastifyInstance) => {
  const catalog = app.routeCatalog;
  const hints = new Map(catalog.documented().map((entry) => [entry.url, entry.doc.otherMethods]));
  for (const [url, served] of catalog.methodsByPath()) {
    const allowed = served.includes('GET') ? [...served, 'HEAD' as const] : served;
    const hint = hints.get(url);
    app.route({
      method: ALL.filter((method) => !allowed.includes(method)),
      url,
      config: { doc: HIDDEN },
      handler: async (request) => {
        const path = request.url.split('?')[0] ?? '';
        throw new ApiProblem('method_not_allowed', `${request.method} is not allowed here.${hint ? ` ${hint(path)}` : ''}`, {
          headers: { allow: allowed.join(', ') },
        });
      },
    });
  }
};
