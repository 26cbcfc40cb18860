/**
 * The dashboard's HTTP client: a token's bearer header, or a session's cookie (sent by the browser)
 * with its CSRF token on every state-changing request; conditional GETs; responses parsed with the contract.
 */
import type { z } from 'zod';
import { CSRF_HEADER } from '../../../contract/session.js';
import type { Connection } from '../connection.js';
import { ApiError, errorFromResponse } from './api-error.js';

export type Conditional<T> =
  { notModified: true; headers: Headers } | { notModified: false; data: T; etag?: string; headers: Headers };

/** Tells "nothing answers there" from "it answers, but the browser hides it (CORS)". */
const transportError = async (url: string): Promise<ApiError> => {
  const target = new URL(url, window.location.href);
  if (target.origin !== window.location.origin) {
    try {
      await fetch(`${target.origin}/healthz`, { mode: 'no-cors', cache: 'no-store' });
      return new ApiError(
        'cors_blocked',
        `${target.origin} answered, but its CORS settings do not let this page read the answer. Allow ${window.location.origin} on that service, or open the dashboard it serves.`,
      );
    } catch {
      /* unreachable as well: fall through */
    }
  }
  return new ApiError('network_unreachable', `Cannot reach ${target.origin}: check the address and that the service is running.`);
};

/** The methods that change state: a session's request by one of them must prove it comes from this page. */
const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** What proves who asks: the token, or (for a session, whose cookie the browser adds) the CSRF token where the method needs it. */
const credentialHeaders = (connection: Connection, method: string): Record<string, string> => {
  if (connection.kind === 'token') return { authorization: `Bearer ${connection.token}` };
  return UNSAFE_METHODS.has(method.toUpperCase()) ? { [CSRF_HEADER]: connection.csrfToken } : {};
};

const jsonRequest = (method: string, body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method,
  body: JSON.stringify(body),
  headers: { 'content-type': 'application/json', ...headers },
});

/** Every failure is an `ApiError` (a cancelled request aside), so queries and mutations can say so in their type. */
export class ApiClient {
  constructor(readonly connection: Connection) {}

  /** The service this client talks to; part of every query key, so two services never share a cache entry. */
  get baseURL(): string {
    return this.connection.baseURL;
  }

  url(path: string): string {
    return `${this.connection.baseURL}${path}`;
  }

  private async send(path: string, init: RequestInit): Promise<Response> {
    const url = this.url(path);
    let response: Response;
    try {
      response = await fetch(url, {
        ...init,
        cache: 'no-store',
        headers: { ...credentialHeaders(this.connection, init.method ?? 'GET'), ...init.headers },
      });
    } catch (error) {
      if ((error as Error).name === 'AbortError') throw error;
      throw await transportError(url);
    }
    if (!response.ok && response.status !== 304) throw await errorFromResponse(response);
    return response;
  }

  /** `onBody` runs once the body's bytes are in, before they are parsed. */
  private async parse<S extends z.ZodType>(response: Response, schema: S, onBody?: () => void): Promise<z.infer<S>> {
    let body: unknown;
    try {
      const text = await response.text();
      onBody?.();
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    const result = schema.safeParse(body);
    if (!result.success)
      throw new ApiError(
        'invalid_response',
        `The service's answer does not match the API: ${result.error.issues[0]?.message ?? 'unknown shape'}.`,
        response.status,
      );
    return result.data;
  }

  async get<S extends z.ZodType>(path: string, schema: S, signal?: AbortSignal): Promise<z.infer<S>> {
    return this.parse(await this.send(path, { method: 'GET', signal }), schema);
  }

  /** GET with If-None-Match: a 304 says the caller's copy is still current. `onBody` runs when a new body is in, before its parse. */
  async getConditional<S extends z.ZodType>(
    path: string,
    schema: S,
    etag: string | undefined,
    signal?: AbortSignal,
    onBody?: () => void,
  ): Promise<Conditional<z.infer<S>>> {
    const response = await this.send(path, { method: 'GET', signal, headers: etag ? { 'if-none-match': etag } : {} });
    if (response.status === 304) return { notModified: true, headers: response.headers };
    return {
      notModified: false,
      data: await this.parse(response, schema, onBody),
      etag: response.headers.get('etag') ?? undefined,
      headers: response.headers,
    };
  }

  /** Opens a long-lived response (the change stream): the caller reads its body; a refusal is an ApiError. */
  openStream(path: string, headers: Record<string, string>, signal: AbortSignal): Promise<Response> {
    return this.send(path, { method: 'GET', signal, headers: { accept: 'text/event-stream', ...headers } });
  }

  /** HEAD: what the service says of a resource without sending it (a file's size before its download). */
  async head(path: string, signal?: AbortSignal): Promise<Headers> {
    return (await this.send(path, { method: 'HEAD', signal })).headers;
  }

  /** GET of a file: the caller reads the body as it arrives (with the token in the header, never in the address). */
  download(path: string, signal: AbortSignal): Promise<Response> {
    return this.send(path, { method: 'GET', signal });
  }

  async delete(path: string): Promise<void> {
    await this.send(path, { method: 'DELETE' });
  }

  /** POST whose answer the caller reads: with a JSON body (a phone's credentials), or none (where to go after signing out). */
  async postForAnswer<S extends z.ZodType>(path: string, schema: S, body?: unknown): Promise<z.infer<S>> {
    return this.parse(await this.send(path, body === undefined ? { method: 'POST' } : jsonRequest('POST', body)), schema);
  }

  async post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<void> {
    await this.send(path, jsonRequest('POST', body, headers));
  }

  async put(path: string, body: unknown): Promise<void> {
    await this.send(path, jsonRequest('PUT', body));
  }
}
