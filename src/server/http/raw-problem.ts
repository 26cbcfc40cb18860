/**
 * Problems written straight to a socket, for what never becomes a request Fastify routes: bytes
 * Node's HTTP parser refuses, a request that does not arrive in time, a connection over the cap.
 */
import type { Duplex } from 'node:stream';
import { STATUS_CODES } from 'node:http';
import { PROBLEM_CONTENT_TYPE } from '../../contract/problem.js';
import { ApiProblem } from './api-problem.js';

/** The whole response, closing the connection: after a protocol error nothing else on it can be trusted. */
export const rawProblemResponse = (problem: ApiProblem): string => {
  const body = JSON.stringify(problem.toBody());
  const headers = [
    `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status] ?? ''}`,
    `content-type: ${PROBLEM_CONTENT_TYPE}`,
    `content-length: ${Buffer.byteLength(body)}`,
    'x-content-type-options: nosniff',
    'cache-control: no-store',
    ...Object.entries(problem.options.headers ?? {}).map(([name, value]) => `${name}: ${value}`),
    'connection: close',
  ];
  return `${headers.join('\r\n')}\r\n\r\n${body}`;
};

/** Node's own marker of the response being written on this socket, if any. */
const responseStarted = (socket: Duplex) => (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;

/** Writes the problem and closes the socket; a socket already gone, or already answered, gets nothing more. */
export const answerOnSocket = (socket: Duplex, problem: ApiProblem): void => {
  if (socket.destroyed) return;
  if (!socket.writable || responseStarted(socket)) {
    socket.destroy();
    return;
  }
  socket.end(rawProblemResponse(problem));
  // A peer that never reads must not keep the socket open past the answer.
  setTimeout(() => socket.destroy(), 1000).unref();
};

interface ParserError extends Error {
  code?: string;
}

/** What Node's HTTP parser refused, by llhttp's error code, in words a client developer can act on. */
const parserMessages: Record<string, string> = {
  HPE_INVALID_METHOD: 'The request method is not a known HTTP method.',
  HPE_INVALID_HEADER_TOKEN: 'A header name or value holds a character HTTP does not allow.',
  HPE_UNEXPECTED_CONTENT_LENGTH: 'The Content-Length header is given more than once.',
  HPE_INVALID_CONTENT_LENGTH: 'The Content-Length header is not a valid length.',
  HPE_INVALID_TRANSFER_ENCODING: 'Transfer-Encoding and Content-Length must not be sent together (or Transfer-Encoding is not valid).',
  HPE_INVALID_CHUNK_SIZE: 'A chunk size of the chunked body is not valid.',
  HPE_INVALID_VERSION: 'The HTTP version is not valid.',
  HPE_INVALID_URL: 'The request target (URL) is not valid.',
  HPE_LF_EXPECTED: 'A line of the request does not end with CRLF.',
  HPE_CR_EXPECTED: 'A line of the request does not end with CRLF.',
};

/** The problem for an error Node's server raised before (or instead of) a request; undefined when nobody is listening any more. */
export const clientErrorProblem = (error: ParserError, limits: { headersKiB: number; requestTimeoutMs: number }): ApiProblem | undefined => {
  switch (error.code) {
    case 'ECONNRESET':
    case 'EPIPE':
      return undefined;
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new ApiProblem(
        'request_timeout',
        `The request did not arrive in full in time (headers within the headers timeout, the whole request within ${limits.requestTimeoutMs / 1000} s).`,
      );
    case 'HPE_HEADER_OVERFLOW':
      return new ApiProblem('headers_too_large', `The request line and headers are larger than ${limits.headersKiB} KiB.`);
    default:
      return new ApiProblem(
        'invalid_request',
        `The request is not valid HTTP: ${parserMessages[error.code ?? ''] ?? 'the parser refused it'} (${error.code ?? 'unknown error'})`,
      );
  }
};
