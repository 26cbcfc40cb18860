/**
 * Authenticates every request of its scope by bearer token, or by a signed-in person's session
 * cookie (whose state-changing requests must also pass the CSRF check), then applies the token's
 * or person's rate limit and cap on requests in flight. Requests without a valid token or session
 * are throttled per source address, so guessing them (or flooding 401s) slows down to a trickle.
 * A person's streams end within a second of their session ending, at whichever instance it ended.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { tokenKey, type ConcurrencySlots, type ReleaseSlot } from '../auth/concurrency-slots.js';
import { RateLimiter } from '../auth/rate-limiter.js';
import { RECHECK_MS, type SessionManager } from '../auth/session-manager.js';
import type { Principal, TokenIndex } from '../auth/token-index.js';
import type { Clock } from '../clock.js';
import { ApiProblem } from './api-problem.js';
import { cookieValue } from './cookies.js';
import { changesState, checkCsrf } from './csrf.js';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal;
  }
  interface FastifyContextConfig {
    /**
     * A long-lived stream (e.g. text/event-stream): not counted among the token's requests in
     * flight; its handler holds a stream slot instead (`app.streamSlots.open(request, reply)`).
     */
    stream?: boolean;
  }
}

/** A session that existed and has ended: answered 401, and not counted as a guess. */
class SessionEnded extends Error {
  constructor() {
    super('Your session has ended (signed out, timed out or revoked): sign in again.');
  }
}

const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

/** Source addresses whose failed attempts are remembered at once; past it, the quiet ones are forgotten first. */
const MAX_TRACKED_ADDRESSES = 10_000;

const unauthorized = (detail: string, challenge: string) =>
  new ApiProblem('unauthorized', detail, { headers: { 'www-authenticate': challenge } });

/**
 * The principal of a request's bearer token, or a 401 problem. Given the request's `connection`
 * (its socket), the token is looked up once per connection while it stays the same (`TokenIndex.findOn`).
 */
export const authenticate = (tokens: TokenIndex, header: string | undefined, connection?: object | null): Principal => {
  if (header === undefined || header === '')
    throw unauthorized('Send "Authorization: Bearer <token>" with every request.', 'Bearer realm="callboard"');
  const match = BEARER.exec(header);
  if (!match?.[1])
    throw unauthorized(
      'The Authorization header must read "Bearer <token>".',
      'Bearer realm="callboard", error="invalid_request"',
    );
  const principal = connection ? tokens.findOn(connection, match[1]) : tokens.find(match[1]);
  if (!principal)
    throw unauthorized('The token is not valid: it is unknown or has been revoked.', 'Bearer realm="callboard", error="invalid_token"');
  return principal;
};

/** The rate limiter's bucket for a token (shared by the routes and the conditional list's fast path): the token's own key. */
export const rateLimitKey = tokenKey;

export interface AuthOptions {
  tokens: TokenIndex;
  /** The per-token limiter, one for the whole service: every request of a token draws on one bucket. */
  limiter: RateLimiter;
  rateLimitPerMinute: number;
  /** Requests with a missing or wrong token allowed a minute from one source address. */
  failedAuthPerMinute: number;
  /** Each token's requests in flight. */
  requestSlots: ConcurrencySlots;
  clock: Clock;
  /** People's sessions, when the service has an identity provider: the cookie's name, and the site's origin for the CSRF check. */
  sessions?: { manager: SessionManager; cookieName: string; origin: string };
}

/**
 * The streams open on people's sessions, checked together every `RECHECK_MS`: one whose session
 * ended (signed out or revoked at any instance, timed out) is ended; the others count as the
 * session's use, so a wall screen on a stream alone does not go idle.
 */
const watchSessionStreams = (manager: SessionManager, log: FastifyInstance['log']) => {
  const open = new Map<string, Set<() => void>>();
  let timer: NodeJS.Timeout | undefined;
  const check = async () => {
    const ids = [...open.keys()];
    const live = await manager.stillOpen(ids).catch((error: unknown) => {
      log.warn({ err: error }, "people's sessions could not be checked; their streams stay open until the next check");
      return new Set(ids);
    });
    for (const id of ids) if (!live.has(id)) for (const end of open.get(id) ?? []) end();
    await manager.keepUsed([...live]).catch((error: unknown) => log.warn({ err: error }, "people's streams could not be counted as their sessions' use"));
  };
  const tick = () => {
    timer = open.size === 0 ? undefined : setTimeout(() => void check().finally(tick), RECHECK_MS);
    timer?.unref();
  };
  return {
    add(sessionID: string, end: () => void): () => void {
      const ends = open.get(sessionID) ?? new Set();
      open.set(sessionID, ends.add(end));
      if (!timer) tick();
      return () => {
        ends.delete(end);
        if (ends.size === 0) open.delete(sessionID);
      };
    },
    stop: () => clearTimeout(timer),
  };
};

/**
 * Wrapped with fastify-plugin so the hook lands in the parent's context: register it inside an
 * encapsulated scope, and it guards exactly the routes of that scope.
 */
export const authPlugin = fp(async (app: FastifyInstance, options: AuthOptions) => {
  const { limiter } = options;
  const failures = new RateLimiter(options.failedAuthPerMinute, options.clock, MAX_TRACKED_ADDRESSES);
  const slots = new WeakMap<FastifyRequest, ReleaseSlot>();

  const sessions = options.sessions;
  const streams = sessions && watchSessionStreams(sessions.manager, app.log);
  if (streams) app.addHook('onClose', async () => streams.stop());

  /** A request without an Authorization header but with the session cookie is a person's. */
  const authenticateSession = async (request: FastifyRequest): Promise<Principal | undefined> => {
    if (!sessions || request.headers.authorization !== undefined) return undefined;
    const presented = cookieValue(request.headers.cookie, sessions.cookieName);
    if (presented === undefined) return undefined;
    // Only this site's own pages may use a session: another site's link, form or frame is refused (Fetch Metadata).
    const site = request.headers['sec-fetch-site'];
    if (site !== undefined && site !== 'same-origin' && site !== 'none')
      throw new ApiProblem('csrf_failed', `A signed-in browser's request must come from this site's own pages: it came ${site === 'cross-site' ? 'from another site' : `as "${site}"`}.`);
    const found = await sessions.manager.principalOf(presented);
    if (found === 'ended') throw new SessionEnded();
    if (!found) throw unauthorized('Your session has ended (signed out, timed out or revoked): sign in again.', 'Bearer realm="callboard"');
    return found;
  };

  /**
   * A wrong token or unknown session answers 401 until its address used up its allowance, then 429
   * until it refills. A session that was real and ended is no guess: always a 401 (a shift's tabs
   * behind one address time out together), as is anything that is not a refusal (a database down).
   */
  const authenticateOrThrottle = async (request: FastifyRequest): Promise<Principal> => {
    try {
      return (await authenticateSession(request)) ?? authenticate(options.tokens, request.headers.authorization, request.raw.socket);
    } catch (error) {
      if (error instanceof SessionEnded) throw unauthorized(error.message, 'Bearer realm="callboard"');
      if (!(error instanceof ApiProblem) || error.code !== 'unauthorized') throw error;
      const decision = failures.take(request.ip);
      if (decision.allowed) throw error;
      throw new ApiProblem(
        'rate_limited',
        `Too many requests without a valid token came from your address; retry in ${decision.retryAfterSeconds} s.`,
        { headers: { 'retry-after': String(decision.retryAfterSeconds) } },
      );
    }
  };

  app.decorateRequest('principal', null as unknown as Principal);
  app.addHook('onRequest', async (request, reply) => {
    const principal = await authenticateOrThrottle(request);
    if (principal.person && sessions && changesState(request.method)) checkCsrf(request, principal.person.csrfToken, sessions.origin);
    const decision = limiter.take(rateLimitKey(principal));
    if (!decision.allowed)
      throw new ApiProblem('rate_limited', `This token may make ${options.rateLimitPerMinute} requests a minute; retry in ${decision.retryAfterSeconds} s.`, {
        headers: { 'retry-after': String(decision.retryAfterSeconds) },
      });
    request.principal = principal;
    if (request.routeOptions.config.stream) {
      if (principal.person && streams) {
        // Cut, not ended: the stream's own writer sees the close and stops; the browser reconnects and is told 401.
        const forget = streams.add(principal.person.sessionID, () => reply.raw.destroy());
        reply.raw.once('close', forget);
      }
      return;
    }
    // Given back when the response is done or the connection drops, whichever comes first.
    const release = options.requestSlots.acquire(principal);
    slots.set(request, release);
    reply.raw.once('close', release);
  });
  app.addHook('onResponse', async (request) => {
    slots.get(request)?.();
  });
});
