/**
 * A small client of Asterisk's REST Interface: requests under `<ariURL>/ari` with HTTP basic auth
 * (never the `api_key` query parameter, which would put the password in URLs and logs), JSON
 * answers checked against ARI's models, and the application's event WebSocket, reopened with
 * backoff whenever it drops.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import WebSocket from 'ws';
import type { z } from 'zod';
import { ProviderFailure } from '../phone-system.js';

export interface AriClientOptions {
  ariURL: string;
  username: string;
  password: string;
  app: string;
}

/** Asterisk refused a request: its HTTP status and the message of its answer. */
export class AriRefusal extends Error {
  constructor(
    readonly status: number,
    readonly ariMessage: string,
  ) {
    super(`Asterisk answered ${status}: ${ariMessage}`);
    this.name = 'AriRefusal';
  }
}

export type Query = Record<string, string | number | boolean | undefined>;

const queryString = (query: Query): string => {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, String(value));
  const text = params.toString();
  return text ? `?${text}` : '';
};

export class AriClient {
  private readonly base: string;
  private readonly authorization: string;
  /** Requests made, for the figures of requests per minute. */
  requests = 0;

  constructor(private readonly options: AriClientOptions) {
    this.base = `${options.ariURL.replace(/\/+$/, '')}/ari`;
    this.authorization = `Basic ${Buffer.from(`${options.username}:${options.password}`).toString('base64')}`;
  }

  /** One request; a JSON answer is checked against `schema` (none: the answer is ignored). */
  async request<T>(method: 'GET' | 'POST' | 'DELETE', path: string, query: Query, signal: AbortSignal, schema?: z.ZodType<T>): Promise<T> {
    this.requests += 1;
    let response: Response;
    try {
      response = await fetch(`${this.base}${path}${queryString(query)}`, {
        method,
        headers: { authorization: this.authorization, accept: 'application/json' },
        signal,
      });
    } catch (error) {
      if (signal.aborted) throw error;
      throw new ProviderFailure('unavailable', `Asterisk's ARI at ${this.options.ariURL} cannot be reached: ${(error as Error).message}`);
    }
    const text = await response.text();
    if (response.status === 401 || response.status === 403)
      throw new ProviderFailure('error', `Asterisk refused the ARI user "${this.options.username}" (${response.status}): check username and password in ari.conf`);
    if (response.status >= 500) throw new ProviderFailure('error', `Asterisk answered ${response.status} to ${method} ${path}: ${messageOf(text)}`);
    if (response.status >= 400) throw new AriRefusal(response.status, messageOf(text));
    if (!schema) return undefined as T;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new ProviderFailure('error', `Asterisk answered ${method} ${path} with something other than JSON`);
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new ProviderFailure('error', `Asterisk's answer to ${method} ${path} does not match ARI's model: ${issue?.path.join('.') || '(answer)'} ${issue?.message ?? ''}`.trim());
    }
    return parsed.data;
  }

  /** The application's events, `subscribeAll`: every channel, bridge and endpoint, not only those in the application. */
  openEvents(): WebSocket {
    const url = new URL(`${this.base.replace(/^http/, 'ws')}/events${queryString({ app: this.options.app, subscribeAll: true })}`);
    return new WebSocket(url, { headers: { authorization: this.authorization }, handshakeTimeout: 5000 });
  }
}

const messageOf = (text: string): string => {
  try {
    const body = JSON.parse(text) as { message?: unknown; error?: unknown };
    const said = body.message ?? body.error;
    if (typeof said === 'string' && said) return said;
  } catch {
    // Not JSON: the text itself, if short.
  }
  return text.trim().slice(0, 200) || 'no message';
};

export interface EventSocketHandlers {
  /** Every message, as text. */
  message(text: string): void;
  /** The socket opened (again): whatever passed while it was down must be listed. */
  opened(): void;
  /** The socket closed or could not open, with why; it is reopened after a backoff. */
  lost(reason: string): void;
}

/** First and longest wait before reopening the event socket. */
export const RECONNECT_FIRST_MS = 250;
export const RECONNECT_MAX_MS = 10_000;
/** A socket counts as good again (the backoff starts over) once it stayed open this long; one dropped sooner is a flap. */
export const STABLE_AFTER_MS = 2000;
/** A ping this often; a socket that has not answered the last one by the next is dead (a lost host, a NAT that forgot it). */
const PING_EVERY_MS = 20_000;

/**
 * Keeps the event socket open: opens it, reopens it after a backoff that doubles while it keeps
 * failing (from RECONNECT_FIRST_MS to RECONNECT_MAX_MS, with jitter), and closes it for good on stop.
 */
export const keepEventsOpen = (client: AriClient, handlers: EventSocketHandlers): (() => void) => {
  let stopped = false;
  let socket: WebSocket | undefined;
  let failures = 0;
  const stop = new AbortController();
  const open = () => {
    if (stopped) return;
    const current = client.openEvents();
    socket = current;
    let lostTold = false;
    let stable: NodeJS.Timeout | undefined;
    let pinger: NodeJS.Timeout | undefined;
    const lose = (reason: string) => {
      if (lostTold) return;
      lostTold = true;
      clearTimeout(stable);
      clearInterval(pinger);
      current.removeAllListeners();
      current.on('error', () => undefined);
      current.terminate();
      if (stopped) return;
      handlers.lost(reason);
      const wait = Math.min(RECONNECT_MAX_MS, RECONNECT_FIRST_MS * 2 ** failures) * (0.75 + Math.random() * 0.5);
      failures += 1;
      sleep(wait, undefined, { signal: stop.signal }).then(open, () => undefined);
    };
    current.on('open', () => {
      // One that opens and drops at once keeps backing off: only a socket that stayed up starts over.
      stable = setTimeout(() => (failures = 0), STABLE_AFTER_MS);
      let answered = true;
      pinger = setInterval(() => {
        if (!answered) return lose(`no answer to a ping within ${PING_EVERY_MS / 1000} s`);
        answered = false;
        current.ping();
      }, PING_EVERY_MS);
      current.on('pong', () => (answered = true));
      handlers.opened();
    });
    current.on('message', (data) => handlers.message(data.toString()));
    current.on('unexpected-response', (_request, response) => lose(`Asterisk refused it with ${response.statusCode}`));
    current.on('error', (error) => lose(error.message));
    current.on('close', (code) => lose(`closed with code ${code}`));
  };
  open();
  return () => {
    stopped = true;
    stop.abort();
    socket?.removeAllListeners();
    socket?.on('error', () => undefined);
    socket?.terminate();
  };
};
