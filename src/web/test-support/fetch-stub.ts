/**
 * The service as a test sees it: `fetch` answered from a route table (method and path pattern).
 * A request no route answers gets a 501 and fails the test once it ends (see test-setup).
 */
import { vi } from 'vitest';

export interface StubRequest {
  url: URL;
  /** The `:name` segments of the matched pattern, decoded. */
  params: Record<string, string>;
  init: RequestInit | undefined;
}

export type RouteHandler = (request: StubRequest) => Response | Promise<Response>;

/** `'GET /v1/me'` or `'POST /v1/accounts/:accountID/...'`: the method, one space, the path; the query string is the handler's. */
export type RouteTable = Record<string, RouteHandler>;

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'];

const unanswered: string[] = [];
let installed: { mockRestore: () => void } | undefined;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const compileRoute = (route: string, handler: RouteHandler) => {
  const [method = '', path = '', ...rest] = route.split(' ');
  if (!METHODS.includes(method) || !path.startsWith('/') || path.includes('?') || rest.length > 0)
    throw new Error(
      `Route "${route}" of the fetch stub: write it as a method and a path, e.g. "GET /v1/me" or "GET /v1/accounts/:accountID/…".`,
    );
  const names: string[] = [];
  const source = path
    .split('/')
    .map((segment) => (segment.startsWith(':') ? (names.push(segment.slice(1)), '([^/]+)') : escapeRegExp(segment)))
    .join('/');
  const pattern = new RegExp(`^${source}$`);
  const match = (url: URL): Record<string, string> | undefined => {
    const found = pattern.exec(url.pathname);
    return found ? Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(found[i + 1] ?? '')])) : undefined;
  };
  return { method, match, handler };
};

const requestURL = (input: string | URL | Request): URL =>
  new URL(input instanceof Request ? input.url : String(input), window.location.href);

const notFound = () =>
  Response.json(
    { type: 'about:blank', title: 'Not Found', status: 404, detail: 'No such route', code: 'not_found' },
    { status: 404, headers: { 'content-type': 'application/problem+json' } },
  );

/**
 * What a service implementing only the spec answers to our extensions the live pages use on their
 * own: no change stream (the dashboard then polls), no journal to seed the charts from, no queues. A test
 * that streams or seeds gives its own route for the same path.
 */
const SPEC_ONLY: RouteTable = {
  'GET /v1/accounts/:accountID/applications/:applicationID/calls/stream': notFound,
  'GET /v1/accounts/:accountID/applications/:applicationID/provider/:providerID/concurrency': notFound,
  'GET /v1/accounts/:accountID/applications/:applicationID/provider/:providerID/queues': notFound,
};

/** Replaces `fetch` for this test; the returned spy records every request as it was made. */
export const stubFetch = (routes: RouteTable) => {
  const table = [...Object.entries(routes), ...Object.entries(SPEC_ONLY)].map(([route, handler]) => compileRoute(route, handler));
  const spy = vi.spyOn(globalThis, 'fetch');
  installed = spy;
  return spy.mockImplementation(async (input, init) => {
    const url = requestURL(input);
    const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    for (const route of table) {
      const params = route.method === method ? route.match(url) : undefined;
      if (params) return route.handler({ url, params, init });
    }
    unanswered.push(`${method} ${url.pathname}${url.search}`);
    return new Response(`No route of the test's table answers ${method} ${url.pathname}`, { status: 501 });
  });
};

/** After each test: `fetch` is the real one again, and a request no route answered fails the test. */
export const endFetchStub = (): void => {
  installed?.mockRestore();
  installed = undefined;
  const missed = unanswered.splice(0);
  if (missed.length > 0) throw new Error(`Requests that no route of the test's fetch stub answers:\n  ${missed.join('\n  ')}`);
};
