/** Cross-site request forgery: what a signed-in browser's state-changing request must show. */
import type { FastifyRequest } from 'fastify';
import { CSRF_HEADER } from '../../contract/session.js';
import { sameToken } from '../auth/token-index.js';
import { ApiProblem } from './api-problem.js';

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Whether a request changes state, and so must prove it comes from the dashboard's own page. */
export const changesState = (method: string): boolean => UNSAFE.has(method);

/**
 * A browser's state-changing request must come from this site (its Origin) and carry the
 * session's CSRF token, which only a page of this site can read (from `/auth/session`).
 */
export const checkCsrf = (request: FastifyRequest, csrfToken: string, origin: string): void => {
  if (request.headers.origin !== origin)
    throw new ApiProblem(
      'csrf_failed',
      `A signed-in browser's ${request.method} must come from ${origin}: its Origin header was ${request.headers.origin === undefined ? 'missing' : `"${request.headers.origin}"`}.`,
    );
  const presented = request.headers[CSRF_HEADER];
  if (typeof presented !== 'string' || !sameToken(csrfToken, presented))
    throw new ApiProblem('csrf_failed', "Send the session's CSRF token (from GET /auth/session) in the x-csrf-token header.", {
      errors: [{ field: 'x-csrf-token', message: presented === undefined ? 'is missing' : 'does not match the session' }],
    });
};
