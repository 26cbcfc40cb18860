/**
 * Serves the built dashboard from the service's own origin: hashed assets cached for good,
 * index.html for every other non-API GET (client-side routes), under a strict CSP.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { ApiProblem } from './api-problem.js';
import { hideRoutes } from './route-catalog.js';

/**
 * No inline script or style, nothing from elsewhere; `connect-src` stays open to http(s) so the
 * connection page can point the dashboard at another service implementing the API.
 */
export const WEB_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self' http: https:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const API_PREFIXES = ['/v1/', '/v1', '/healthz', '/metrics'];

export const webAppPlugin = async (app: FastifyInstance, { root }: { root: string }) => {
  hideRoutes(app, 'the dashboard and its files, not part of the API');
  const indexHtml = readFileSync(join(root, 'index.html'));
  await app.register(fastifyStatic, {
    root,
    wildcard: false,
    index: false,
    setHeaders: (res, path) => {
      if (path.includes('/assets/')) res.setHeader('cache-control', 'public, max-age=31536000, immutable');
    },
  });
  app.get('/*', async (request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    if (API_PREFIXES.some((prefix) => path === prefix || path.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`)))
      throw new ApiProblem('not_found', `There is nothing at ${request.method} ${path.slice(0, 200)}.`);
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .header('content-security-policy', WEB_CSP)
      .send(indexHtml);
  });
};

export const webRootIfBuilt = (root: string): string | undefined => (existsSync(join(root, 'index.html')) ? root : undefined);
