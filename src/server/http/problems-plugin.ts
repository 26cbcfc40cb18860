/** Turns every error, and every unknown route, into an `application/problem+json` response. */
import fp from 'fastify-plugin';
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { PROBLEM_CONTENT_TYPE } from '../../contract/problem.js';
import { ApiProblem } from './api-problem.js';
import { domainProblem } from './domain-problems.js';

export const sendProblem = (reply: FastifyReply, problem: ApiProblem): FastifyReply => {
  for (const [name, value] of Object.entries(problem.options.headers ?? {})) reply.header(name, value);
  return reply.code(problem.status).type(PROBLEM_CONTENT_TYPE).send(JSON.stringify(problem.toBody()));
};

/** A path as a problem may quote it: no query string (it may hold secrets), and bounded in length. */
const MAX_SHOWN_PATH = 200;
const shownPath = (url: string) => {
  const path = url.split('?')[0] ?? '';
  return path.length > MAX_SHOWN_PATH ? `${path.slice(0, MAX_SHOWN_PATH)}…` : path;
};

/** Fastify's own errors (body parsing, URL decoding) mapped to our codes. */
const fromFastifyError = (error: FastifyError, bodyLimitBytes: number): ApiProblem | undefined => {
  const tooLarge = `The request body is larger than the ${Math.round(bodyLimitBytes / 1024)} KiB limit.`;
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiProblem('unsupported_media_type', 'The request body must be JSON: send "content-type: application/json".');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiProblem('payload_too_large', tooLarge);
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiProblem('invalid_request', 'The request body is empty; a JSON object was expected.');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new ApiProblem('invalid_request', `The request body is not valid JSON: ${error.message}`);
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ApiProblem('invalid_request', 'The content-length header does not match the body.');
    case 'FST_ERR_BAD_URL':
      return new ApiProblem('invalid_request', 'The request URL is not valid (bad percent-encoding).');
    default:
      break;
  }
  if (error instanceof SyntaxError || (error.statusCode === 400 && /JSON/i.test(error.message)))
    return new ApiProblem('invalid_request', `The request body is not valid JSON: ${error.message}`);
  if (error.statusCode === 413) return new ApiProblem('payload_too_large', tooLarge);
  if (error.statusCode === 415) return new ApiProblem('unsupported_media_type', 'The request body must be JSON: send "content-type: application/json".');
  if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500)
    return new ApiProblem('invalid_request', error.message);
  return undefined;
};

export const problemsPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const mapped = domainProblem(error) ?? fromFastifyError(error, request.routeOptions.bodyLimit);
    if (mapped) return sendProblem(reply, mapped);
    request.log.error({ err: error }, 'unhandled error');
    return sendProblem(reply, new ApiProblem('internal', 'Something went wrong on our side. The error has been logged.'));
  });

  app.setNotFoundHandler((request, reply) =>
    sendProblem(reply, new ApiProblem('not_found', `There is nothing at ${request.method} ${shownPath(request.url)}.`)),
  );
});
