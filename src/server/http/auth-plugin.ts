/** Authenticates every request of its scope by bearer token, then applies the per-token rate limit. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { RateLimiter } from '../auth/rate-limiter.js';
import type { Principal, TokenIndex } from '../auth/token-index.js';
import { ApiProblem } from './api-problem.js';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal;
  }
}

const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

const unauthorized = (detail: string, challenge: string) =>
  new ApiProblem('unauthorized', detail, { headers: { 'www-authenticate': challenge } });

export const authenticate = (tokens: TokenIndex, header: string | undefined): Principal => {
  if (header === undefined || header === '')
    throw unauthorized('Send "Authorization: Bearer <token>" with every request.', 'Bearer realm="callboard"');
  const match = BEARER.exec(header);
  if (!match?.[1])
    throw unauthorized(
      'The Authorization header must read "Bearer <token>".',
      'Bearer realm="callboard", error="invalid_request"',
    );
  const principal = tokens.find(match[1]);
  if (!principal)
    throw unauthorized('The token is not valid: it is unknown or has been revoked.', 'Bearer realm="callboard", error="invalid_token"');
  return principal;
};

/** The rate limiter's bucket for a token (shared by the routes and the conditional list's fast path). */
export const rateLimitKey = (principal: Principal): string => `${principal.accountID}\u0000${principal.tokenName}`;

export interface AuthOptions {
  tokens: TokenIndex;
  /** The per-token limiter, one for the whole service: every request of a token draws on one bucket. */
  limiter: RateLimiter;
  rateLimitPerMinute: number;
}

/**
 * Wrapped with fastify-plugin so the hook lands in the parent's context: register it inside an
 * encapsulated scope, and it guards exactly the routes of that scope.
 */
export const authPlugin = fp(async (app: FastifyInstance, options: AuthOptions) => {
  const { limiter } = options;
  app.decorateRequest('principal', null as unknown as Principal);
  app.addHook('onRequest', async (request: FastifyRequest) => {
    const principal = authenticate(options.tokens, request.headers.authorization);
    const decision = limiter.take(rateLimitKey(principal));
    if (!decision.allowed)
      throw new ApiProblem('rate_limited', `This token may make ${options.rateLimitPerMinute} requests a minute; retry in ${decision.retryAfterSeconds} s.`, {
        headers: { 'retry-after': String(decision.retryAfterSeconds) },
      });
    request.principal = principal;
  });
});
