/** CORS for dashboards served from other origins that the config lists; nothing is allowed by default. */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { IDEMPOTENCY_KEY_HEADER } from '../../contract/make-call.js';
import { SNAPSHOT_AGE_HEADER } from '../../contract/paths.js';
import { EXPORT_COUNT_HEADER, RETENTION_CUT_HEADER } from '../../contract/reports.js';

const ALLOWED_HEADERS = ['authorization', 'content-type', 'if-none-match', IDEMPOTENCY_KEY_HEADER].join(', ');
const EXPOSED_HEADERS = [
  'etag',
  'retry-after',
  SNAPSHOT_AGE_HEADER,
  'idempotent-replayed',
  'www-authenticate',
  // An export's count, retention cut and file name, for a dashboard on another origin.
  EXPORT_COUNT_HEADER,
  RETENTION_CUT_HEADER,
  'content-disposition',
].join(', ');

export const corsPlugin = fp(async (app: FastifyInstance, { origins }: { origins: string[] }) => {
  const allowed = new Set(origins);
  if (allowed.size === 0) return;
  app.addHook('onRequest', async (request, reply) => {
    const origin = request.headers.origin;
    if (!origin || !allowed.has(origin)) return;
    reply.header('access-control-allow-origin', origin).header('vary', 'Origin').header('access-control-expose-headers', EXPOSED_HEADERS);
    if (request.method === 'OPTIONS' && request.headers['access-control-request-method']) {
      return reply
        .code(204)
        .header('access-control-allow-methods', 'GET, HEAD, POST, PUT, DELETE')
        .header('access-control-allow-headers', ALLOWED_HEADERS)
        .header('access-control-max-age', '600')
        .send();
    }
  });
});
