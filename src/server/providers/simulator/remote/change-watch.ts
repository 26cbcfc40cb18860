/**
 * Watches a simulator's change stream: calls back on every `change` line, and reopens the stream
 * with a growing back-off (and some jitter, so a cluster's instances do not all knock at once)
 * whenever it ends, fails, or stays silent past its keepalives.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { ProviderFailure } from '../../phone-system.js';
import { ndjsonLines } from './ndjson-lines.js';
import { changeLineSchema } from './wire-contract.js';

export interface ChangeWatchOptions {
  /** Opens the stream; resolves with the answer once its status says it is one. */
  open: (signal: AbortSignal) => Promise<Response>;
  /** How long the stream may stay silent (keepalives come every 15 s) before it is reopened. */
  idleMs: number;
  /** The first wait before reopening, doubled after each failed attempt up to `maxBackoffMs`. */
  firstBackoffMs: number;
  maxBackoffMs: number;
}

export const watchChangeStream = (options: ChangeWatchOptions, onChange: () => void): (() => void) => {
  const stop = new AbortController();
  void (async () => {
    let backoff = options.firstBackoffMs;
    while (!stop.signal.aborted) {
      if (await follow(options, stop.signal, onChange)) backoff = options.firstBackoffMs;
      const jittered = backoff * (0.8 + 0.4 * Math.random());
      await sleep(jittered, undefined, { signal: stop.signal }).catch(() => undefined);
      backoff = Math.min(backoff * 2, options.maxBackoffMs);
    }
  })();
  return () => stop.abort();
};

/** Follows one connection until it ends; says whether it got as far as a line (so the back-off starts over). */
const follow = async (options: ChangeWatchOptions, stopped: AbortSignal, onChange: () => void): Promise<boolean> => {
  const connection = new AbortController();
  const drop = () => connection.abort();
  stopped.addEventListener('abort', drop, { once: true });
  let heard = false;
  try {
    const response = await options.open(connection.signal);
    if (!response.body) return false;
    const onIdle = () => new ProviderFailure('timeout', `the change stream was silent for ${options.idleMs} ms`);
    for await (const line of ndjsonLines(response.body, { idleMs: options.idleMs, onIdle })) {
      heard = true;
      const parsed = changeLineSchema.safeParse(line);
      if (parsed.success && parsed.data.event === 'change' && !stopped.aborted) onChange();
    }
  } catch {
    // Refused, failed or silent: the caller waits its back-off and opens it again.
  } finally {
    stopped.removeEventListener('abort', drop);
    connection.abort();
  }
  return heard;
};
