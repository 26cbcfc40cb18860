/** Reads a change stream over real HTTP, as a dashboard would, for the service's tests. */
import { createEventStreamParser, type ServerSentEvent } from '../../contract/event-stream-parser.js';

export interface StreamClient {
  status: number;
  headers: Headers;
  /** Events received so far, in order. */
  events: ServerSentEvent[];
  /** Resolves with the first event from `after` on (an index into `events`) that `match` accepts. */
  next(match: (event: ServerSentEvent) => boolean, options?: { after?: number; timeoutMs?: number }): Promise<ServerSentEvent>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

export const openStream = async (url: string, headers: Record<string, string>): Promise<StreamClient> => {
  const abort = new AbortController();
  const response = await fetch(url, { headers, signal: abort.signal });
  const events: ServerSentEvent[] = [];
  const waiters = new Set<() => void>();
  const parser = createEventStreamParser();
  const ended = (async () => {
    if (!response.body || !response.headers.get('content-type')?.startsWith('text/event-stream')) return;
    const decoder = new TextDecoder();
    try {
      for await (const chunk of response.body) {
        events.push(...parser.push(decoder.decode(chunk as Uint8Array, { stream: true })));
        for (const wake of waiters) wake();
      }
    } catch {
      // Closed by the test, or dropped by the server: the events so far stay readable.
    }
  })();
  return {
    status: response.status,
    headers: response.headers,
    events,
    ended,
    close: () => abort.abort(),
    next: (match, { after = 0, timeoutMs = 5000 } = {}) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const found = events.slice(after).find(match);
          if (!found) return false;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no matching event within ${timeoutMs} ms; got ${events.map((e) => e.event).join(', ')}`));
        }, timeoutMs);
        if (!check()) waiters.add(check);
      }),
  };
};
