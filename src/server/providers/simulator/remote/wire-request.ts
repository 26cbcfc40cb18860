/**
 * One request to a simulator process, failing as the errors it raised on its side: its provider
 * failures and subscriber rejections by their codes; a refused connection as 'unavailable', an
 * aborted request as 'timeout', and any other failed answer as 'error'.
 */
import type { z } from 'zod';
import { ProviderFailure, SubscriberRejection, type SubscriberRejectionCode } from '../../phone-system.js';
import { errorBodySchema, type WireError } from './wire-contract.js';

export interface WireRequest {
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  body?: unknown;
  signal: AbortSignal;
}

const REJECTIONS: readonly string[] = ['subscriber_not_found', 'subscriber_not_registered', 'subscriber_inactive', 'subscriber_mismatch'];
const FAILURES: readonly string[] = ['unavailable', 'error', 'timeout'];
const UNREACHABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EPIPE', 'UND_ERR_SOCKET']);

/** Node's fetch hides the socket error one or two causes deep. */
const socketErrorCode = (error: unknown): string | undefined => {
  for (let cause = error; cause instanceof Error; cause = cause.cause)
    if ('code' in cause && typeof cause.code === 'string') return cause.code;
  return undefined;
};

/** What a request that got no (whole) answer failed with. */
export const transportFailure = (where: string, error: unknown, signal: AbortSignal): ProviderFailure => {
  if (error instanceof ProviderFailure) return error;
  if (signal.aborted) return new ProviderFailure('timeout', `the simulator at ${where} did not answer in time`);
  const code = socketErrorCode(error);
  if (code !== undefined && UNREACHABLE.has(code)) return new ProviderFailure('unavailable', `the simulator at ${where} cannot be reached (${code})`);
  return new ProviderFailure('error', `the request to the simulator at ${where} failed: ${(error as Error).message}`);
};

/** The error the simulator raised, from its code; an answer without one by its status. */
export const wireFailure = (error: WireError): Error => {
  if (REJECTIONS.includes(error.code)) return new SubscriberRejection(error.code as SubscriberRejectionCode, error.message);
  if (FAILURES.includes(error.code)) return new ProviderFailure(error.code as ProviderFailure['kind'], error.message);
  return new ProviderFailure('error', `the simulator refused the request (${error.code}): ${error.message}`);
};

const statusFailure = (where: string, response: Response, text: string): Error => {
  try {
    const body = errorBodySchema.safeParse(JSON.parse(text));
    if (body.success) return wireFailure(body.data.error);
  } catch {
    // Not JSON: an answer from something other than the simulator, judged by its status below.
  }
  const status = `HTTP ${response.status} ${response.statusText}`.trim();
  if (response.status === 503) return new ProviderFailure('unavailable', `the simulator at ${where} is unavailable (${status})`);
  if (response.status === 504) return new ProviderFailure('timeout', `the simulator at ${where} did not answer in time (${status})`);
  return new ProviderFailure('error', `the simulator at ${where} answered ${status}`);
};

export interface WireClient {
  /** The simulator's base URL, as errors name it. */
  readonly base: string;
  /** Resolves with any successful answer, its body unread. */
  send(request: WireRequest): Promise<Response>;
  /** The answer's JSON body, checked against `schema`: a body that breaks the wire is the simulator's error. */
  json<T>(request: WireRequest, schema: z.ZodType<T>): Promise<T>;
}

export const wireClient = (baseURL: string, fetchImpl: typeof fetch): WireClient => {
  const base = baseURL.replace(/\/+$/, '');
  const send = async ({ method, path, body, signal }: WireRequest): Promise<Response> => {
    try {
      const response = await fetchImpl(`${base}${path}`, {
        method,
        signal,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (response.ok) return response;
      throw statusFailure(base, response, await response.text());
    } catch (error) {
      throw error instanceof SubscriberRejection ? error : transportFailure(base, error, signal);
    }
  };
  const json = async <T>(request: WireRequest, schema: z.ZodType<T>): Promise<T> => {
    const response = await send(request);
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      throw transportFailure(base, error, request.signal);
    }
    const parsed = schema.safeParse(parseJson(text));
    if (parsed.success) return parsed.data;
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? issue.path.join('.') : 'the body';
    throw new ProviderFailure('error', `the simulator at ${base} answered ${request.method} ${request.path} against the wire: ${where}: ${issue?.message}`);
  };
  return { base, send, json };
};

/** The JSON value of a text, or the text itself when it is not JSON (a schema then says what was wrong). */
const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};
