/**
 * Serves the built dashboard from the service's own origin: hashed assets cached for good,
 * index.html for every other non-API GET (client-side routes), under a strict CSP. Text goes out
 * brotli- or gzip-compressed to browsers that accept it: the copies the build made, sent as they are.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { ApiProblem } from './api-problem.js';
import { hideRoutes } from './route-catalog.js';

/**
 * No inline script or style, nothing from elsewhere; `connect-src` stays open to http(s) so the
 * connection page can point the dashboard at another service implementing the API, and to ws(s) so
 * a browser phone reaches its phone system's SIP over WebSocket, wherever that is.
 */
export const WEB_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self' http: https: ws: wss:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const API_PREFIXES = ['/v1/', '/v1', '/healthz', '/metrics'];

type Encoding = 'br' | 'gzip';

/**
 * The encoding to send, of those the request accepts (`Accept-Encoding`, q-values honoured):
 * brotli first, then gzip; none means as it is.
 */
export const acceptedEncoding = (header: string | string[] | undefined): Encoding | undefined => {
  const accepted = new Map<string, number>();
  for (const part of (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((param) => /^\s*q=([0-9.]+)\s*$/.exec(param)?.[1]).find((value) => value !== undefined);
    if (name) accepted.set(name, q === undefined ? 1 : Number(q));
  }
  const weight = (name: Encoding) => accepted.get(name) ?? (accepted.has('*') ? (accepted.get('*') as number) : 0);
  return (['br', 'gzip'] as const).find((name) => weight(name) > 0);
};

export const webAppPlugin = async (app: FastifyInstance, { root }: { root: string }) => {
  hideRoutes(app, 'the dashboard and its files, not part of the API');
  const indexHtml = readFileSync(join(root, 'index.html'));
  // Compressed once at start: it is sent for every client-side route.
  const indexEncoded: Record<Encoding, Buffer> = { br: brotliCompressSync(indexHtml), gzip: gzipSync(indexHtml, { level: 9 }) };
  // Hashed names change with their content: cached for good, whichever copy (plain, br, gzip) is sent.
  // Set on the way out, as the static plugin sets its own cache-control for the compressed copies.
  // Every copy says it varies with Accept-Encoding, the plain one too, so no shared cache hands one to the wrong browser.
  app.addHook('onSend', async (request, reply) => {
    if (reply.statusCode !== 200) return;
    if (request.url.startsWith('/assets/')) reply.header('cache-control', 'public, max-age=31536000, immutable');
    if (!/accept-encoding/i.test(String(reply.getHeader('vary') ?? ''))) reply.header('vary', 'accept-encoding');
  });
  await app.register(fastifyStatic, {
    root,
    wildcard: false,
    index: false,
    // x.js.br and x.js.gz beside x.js, made by the build; `Vary: Accept-Encoding` comes with them.
    preCompressed: true,
  });
  app.get('/*', async (request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    if (API_PREFIXES.some((prefix) => path === prefix || path.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`)))
      throw new ApiProblem('not_found', `There is nothing at ${request.method} ${path.slice(0, 200)}.`);
    const encoding = acceptedEncoding(request.headers['accept-encoding']);
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').header('content-security-policy', WEB_CSP).header('vary', 'accept-encoding');
    return encoding ? reply.header('content-encoding', encoding).send(indexEncoded[encoding]) : reply.send(indexHtml);
  });
};

export const webRootIfBuilt = (root: string): string | undefined => (existsSync(join(root, 'index.html')) ? root : undefined);
