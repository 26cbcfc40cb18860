/**
 * Fastify's per-request log lines, leveled for operators: one line per request at debug; at info
 * and above only what an operator must see, server errors and requests slower than `slowMs`. A
 * wall of dashboards polling every second writes nothing at the default level while all is well.
 */
import { paths } from '../../contract/paths.js';
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/** The route's pattern, not the URL: no query string, no IDs an attacker chose, bounded in size. */
const routeOf = (request: FastifyRequest) => request.routeOptions.url ?? '(no route)';

const lineOf = (request: FastifyRequest, reply: FastifyReply) => ({
  method: request.method,
  route: routeOf(request),
  status: reply.statusCode,
  ms: Math.round(reply.elapsedTime),
  ...(request.principal ? { token: request.principal.tokenName, account: request.principal.accountID } : {}),
});

export class RequestLogController extends LogController {
  constructor(private readonly slowMs: number) {
    super();
  }

  /** The completed line says everything; an incoming line would double the volume. */
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const line = lineOf(request, reply);
    // Not ready is an answer, not a failure: a balancer asks every half second while an instance starts or stops.
    if (reply.statusCode === 503 && routeOf(request) === paths.ready()) reply.log.debug(line, 'not ready');
    else if (error || reply.statusCode >= 500) reply.log.error({ ...line, ...(error ? { err: error } : {}) }, 'request failed');
    else if (reply.elapsedTime >= this.slowMs) reply.log.info(line, 'slow request');
    else reply.log.debug(line, 'request');
  }

  /** Unknown routes are answered with a problem and counted at debug like any other request. */
  override routeNotFound(): void {}
}
