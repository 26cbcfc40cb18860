/**
 * The spec list's 304, answered before the framework: a poller whose copy is current is most of
 * the traffic a busy service sees, and a framework's routing, hooks and reply cost several times
 * what the answer itself does. Only the plainest case is taken here — a GET of the live list
 * without a query, with If-None-Match, a valid token within its rate, a snapshot that matches —
 * and it is decided by the very functions the routes use (authenticate, requirePermission,
 * resolveProvider, the rate limiter, the snapshot's ETag), so the rules exist once. Anything
 * else, every error included, goes on to the routes, which answer it in full.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { routePatterns, SNAPSHOT_AGE_HEADER } from '../../contract/paths.js';
import type { RateLimiter } from '../auth/rate-limiter.js';
import type { TokenIndex } from '../auth/token-index.js';
import { requirePermission, resolveProvider } from './resolve-provider.js';
import type { ProviderRuntime, ProviderRuntimes } from '../runtime/provider-runtimes.js';
import { authenticate, rateLimitKey } from '../http/auth-plugin.js';
import { matchesIfNoneMatch } from '../http/send-json.js';

/** The live list's path, without percent-encoded segments (those take the full route, which decodes them). */
const LIVE_LIST = /^\/v1\/accounts\/([^/%?]+)\/applications\/([^/%?]+)\/provider\/([^/%?]+)\/calls$/;

/**
 * What every such 304 says besides its ETag and age, as name, value pairs ready for `writeHead`:
 * what guides the client's stored copy, as for every 304 (no security headers: the stored answer
 * keeps its own).
 */
const CONSTANT_HEADERS: readonly string[] = ['vary', 'Accept-Encoding', 'cache-control', 'no-cache'];

export interface FastPathDeps {
  tokens: TokenIndex;
  limiter: RateLimiter;
  registry: ProviderRuntimes;
  /** Counts the answer as the framework's response hook counts the others. */
  observe(method: string, route: string, status: number, seconds: number): void;
  /** False while every request must go through the framework: shutting down, or logging each request. */
  open(): boolean;
}

export type FastPath = (request: IncomingMessage, response: ServerResponse) => boolean;

/** Answers the request and returns true, or returns false having written nothing. */
export const conditionalListFastPath =
  (deps: FastPathDeps): FastPath =>
  (request, response) => {
    const started = performance.now();
    const ifNoneMatch = request.headers['if-none-match'];
    // A browser's cross-origin request needs the CORS headers only the framework's plugin writes.
    if (request.method !== 'GET' || ifNoneMatch === undefined || request.headers.origin !== undefined || !deps.open())
      return false;
    const ids = LIVE_LIST.exec(request.url ?? '');
    if (!ids) return false;
    let principalKey: string;
    let runtime: ProviderRuntime;
    try {
      const principal = authenticate(deps.tokens, request.headers.authorization, request.socket);
      requirePermission(principal, 'calls:read');
      runtime = resolveProvider(deps.registry, principal, {
        accountID: ids[1] ?? '',
        applicationID: ids[2] ?? '',
        providerID: ids[3] ?? '',
      });
      principalKey = rateLimitKey(principal);
    } catch {
      return false;
    }
    const read = runtime.sync.live.read();
    if (!read.ok || !matchesIfNoneMatch(ifNoneMatch, read.snapshot.etag)) return false;
    // Charged only once the answer is sure to be this 304: a request that goes on is charged by the route.
    if (!deps.limiter.take(principalKey).allowed) return false;
    response.writeHead(304, ['etag', read.snapshot.etag, SNAPSHOT_AGE_HEADER, String(read.ageMs), ...CONSTANT_HEADERS]);
    response.end();
    deps.observe('GET', routePatterns.listCalls, 304, (performance.now() - started) / 1000);
    return true;
  };
