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

/** What a dashboard keeps of a stream across reconnections: each provider's calls, by ID. */
export interface FollowedStream {
  calls: Map<string, Map<string, { callID: string }>>;
  /** The status of every (re)connection, in order. */
  opens: number[];
  /** Reconnections answered with the changes since the last event, and with a fresh snapshot. */
  resumed: number;
  restarted: number;
  stop(): Promise<void>;
}

/**
 * Follows a stream as a browser's EventSource does: when the server ends it (or the connection
 * drops), reconnects after `retryMs` with the last event's ID, and applies whatever comes.
 */
export const followStream = (url: string, headers: Record<string, string>, retryMs = 200): FollowedStream => {
  const followed: FollowedStream = { calls: new Map(), opens: [], resumed: 0, restarted: 0, stop: async () => undefined };
  let running = true;
  let current: StreamClient | undefined;
  const apply = (event: ServerSentEvent) => {
    if (event.event !== 'snapshot' && event.event !== 'changes') return;
    const data = JSON.parse(event.data) as { providerID: string; calls?: { callID: string }[]; upserted?: { callID: string }[]; removed?: string[] };
    if (data.calls) followed.calls.set(data.providerID, new Map(data.calls.map((call) => [call.callID, call])));
    const calls = followed.calls.get(data.providerID) ?? new Map();
    for (const call of data.upserted ?? []) calls.set(call.callID, call);
    for (const callID of data.removed ?? []) calls.delete(callID);
    followed.calls.set(data.providerID, calls);
  };
  const loop = (async () => {
    let lastID: string | undefined;
    while (running) {
      try {
        current = await openStream(url, { ...headers, ...(lastID ? { 'last-event-id': lastID } : {}) });
        followed.opens.push(current.status);
        let seen = 0;
        // After a reconnection, the first snapshot or changes says how it went on (a status may come before either).
        let reconnected = lastID !== undefined;
        const drain = () => {
          for (; seen < (current?.events.length ?? 0); seen += 1) {
            const event = current?.events[seen] as ServerSentEvent;
            if (reconnected && (event.event === 'snapshot' || event.event === 'changes')) {
              if (event.event === 'snapshot') followed.restarted += 1;
              else followed.resumed += 1;
              reconnected = false;
            }
            apply(event);
            lastID = event.id || lastID;
          }
        };
        const timer = setInterval(drain, 20);
        await current.ended;
        clearInterval(timer);
        drain();
      } catch {
        followed.opens.push(0);
      }
      if (running) await new Promise((resolve) => setTimeout(resolve, retryMs));
    }
  })();
  followed.stop = async () => {
    running = false;
    current?.close();
    await loop;
  };
  return followed;
};
