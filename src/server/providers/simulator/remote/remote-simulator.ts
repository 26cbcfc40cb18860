/**
 * A simulator run as a process of its own (`npm run simulator`), behind the PhoneSystem interface:
 * every instance of a cluster points at the same one. It fails as the in-process simulator does
 * (its failures and rejections cross the wire by code), and checks every answer against the wire.
 */
import type { PastCalls, PastRange, PhoneSystem, PhoneSystemControl } from '../../phone-system.js';
import { ProviderFailure } from '../../phone-system.js';
import { watchChangeStream } from './change-watch.js';
import { ndjsonLines } from './ndjson-lines.js';
import { listCallsBodySchema, pastLineSchema, subscribersBodySchema, wirePaths } from './wire-contract.js';
import { transportFailure, wireClient, wireFailure, type WireClient } from './wire-request.js';

export interface RemoteSimulatorOptions {
  /** The simulator process's base URL, such as http://127.0.0.1:8090. */
  url: string;
  /** Deadline of the drills, which no sync loop or route bounds itself. */
  requestTimeoutMs: number;
  /** How long the past may pause between batches before it counts as a timeout (default 60 s: a batch takes seconds at most). */
  pastIdleMs?: number;
  /** How long a change stream may stay silent (keepalives come every 15 s) before it is reopened (default 40 s). */
  changesIdleMs?: number;
  /** Waits before reopening a change stream: the first, doubling up to the longest (default 250 ms to 10 s). */
  reconnectMs?: { first: number; max: number };
  /** Injected in tests; the global fetch otherwise. */
  fetch?: typeof fetch;
}

export interface RemoteSimulator extends PhoneSystem {
  readonly control: PhoneSystemControl;
  backfill(range: PastRange, signal: AbortSignal): AsyncIterable<PastCalls>;
  watchChanges(onChange: () => void): () => void;
}

export const createRemoteSimulator = (options: RemoteSimulatorOptions): RemoteSimulator => {
  const wire = wireClient(options.url, options.fetch ?? fetch);
  const watches = new Set<() => void>();
  let closed = false;
  const refuseIfClosed = () => {
    if (closed) throw new ProviderFailure('unavailable', `the connection to the simulator at ${wire.base} has been closed`);
  };
  const drill = async (path: string, body: unknown) => {
    refuseIfClosed();
    await wire.send({ method: 'PUT', path, body, signal: AbortSignal.timeout(options.requestTimeoutMs) });
  };

  return {
    listCalls: async (signal) => {
      refuseIfClosed();
      return (await wire.json({ method: 'GET', path: wirePaths.calls, signal }, listCallsBodySchema)).calls;
    },
    placeCall: async (request, signal) => {
      refuseIfClosed();
      await wire.send({ method: 'POST', path: wirePaths.calls, body: request, signal });
    },
    listSubscribers: async (signal) => {
      refuseIfClosed();
      return (await wire.json({ method: 'GET', path: wirePaths.subscribers, signal }, subscribersBodySchema)).subscribers;
    },
    backfill: (range, signal) => {
      refuseIfClosed();
      return pastOf(wire, range, signal, options.pastIdleMs ?? 60_000);
    },
    watchChanges: (onChange) => {
      const stop = watchChangeStream(
        {
          open: (signal) => wire.send({ method: 'GET', path: wirePaths.changes, signal }),
          idleMs: options.changesIdleMs ?? 40_000,
          firstBackoffMs: options.reconnectMs?.first ?? 250,
          maxBackoffMs: options.reconnectMs?.max ?? 10_000,
        },
        onChange,
      );
      watches.add(stop);
      return () => {
        watches.delete(stop);
        stop();
      };
    },
    control: {
      setFailure: (mode) => drill(wirePaths.failure, { mode }),
      scriptNextPlacedCall: (script) => drill(wirePaths.nextPlacedCall, script),
    },
    close: async () => {
      closed = true;
      for (const stop of watches) stop();
      watches.clear();
    },
  };
};

/** The past of `range` as the simulator streams it; stopping early (or aborting) drops the stream, which stops the run there. */
async function* pastOf(wire: WireClient, range: PastRange, signal: AbortSignal, idleMs: number): AsyncGenerator<PastCalls> {
  const query = new URLSearchParams({ since: String(range.since), from: String(range.from), to: String(range.to) });
  const response = await wire.send({ method: 'GET', path: `${wirePaths.past}?${query}`, signal });
  if (!response.body) throw new ProviderFailure('error', `the simulator at ${wire.base} answered the past without a body`);
  const onIdle = () => new ProviderFailure('timeout', `the simulator at ${wire.base} sent no part of the past for ${idleMs} ms`);
  let through = -Infinity;
  try {
    for await (const line of ndjsonLines(response.body, { idleMs, onIdle })) {
      const parsed = pastLineSchema.safeParse(line);
      if (!parsed.success) throw new ProviderFailure('error', `the simulator at ${wire.base} sent a line of the past against the wire`);
      if ('error' in parsed.data) throw wireFailure(parsed.data.error);
      through = parsed.data.through;
      yield parsed.data;
    }
  } catch (error) {
    throw transportFailure(wire.base, error, signal);
  }
  if (through < range.to) throw new ProviderFailure('error', `the simulator at ${wire.base} ended the past before the end of its range`);
}
