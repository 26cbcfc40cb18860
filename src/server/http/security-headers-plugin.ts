/** Security headers on every response; API responses are never framed, sniffed or scripted. */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

export const API_CSP = "default-src 'none'; frame-ancestors 'none'";

/** What every API response carries; a response written outside Fastify's reply (a stream) sets them itself. */
export const API_SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'content-security-policy': API_CSP,
} as const;

export const securityHeadersPlugin = fp(async (app: FastifyInstance) => {
  // A callback hook, not an async one: it runs on every response, and a promise per request shows at 10,000 req/s.
  app.addHook('onSend', (_request, reply, payload, done) => {
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
    if (!reply.hasHeader('content-security-policy')) reply.header('content-security-policy', API_CSP);
    done(null, payload);
  });
});
