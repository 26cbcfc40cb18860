/**
 * Serves one simulated center over the simulator's wire (wire-contract.ts), so that every service
 * instance of a cluster sees the same phone system: calls, subscribers, placing calls, the past in
 * bounded batches, a change stream, and the drill controls when the phone system offers them.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { z } from 'zod';
import { ProviderFailure, SubscriberRejection, type PhoneSystem } from '../../phone-system.js';
import { ChangeFeed } from './change-feed.js';
import {
  NDJSON,
  nextPlacedCallSchema,
  pastQuerySchema,
  placeCallBodySchema,
  simulatorFailureSchema,
  wirePaths,
  type CenterBody,
  type WireError,
} from './wire-contract.js';

export interface SimulatorServerOptions {
  phoneSystem: PhoneSystem;
  /** What GET /v1/center answers. */
  center: CenterBody;
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** How often a change stream without changes says it is alive (default 15 s). */
  keepaliveMs?: number;
  /** How often the calls are compared for the change stream when the phone system cannot tell (default 250 ms). */
  changePollMs?: number;
  /** Told of a failure that is a bug on the simulator's side (the client only hears "internal"). */
  onInternalError: (error: unknown) => void;
}

export interface SimulatorServer {
  /** http://host:port, the base of every wire path. */
  readonly url: string;
  /** Ends the change streams and the past being sent, stops accepting, and waits for the requests in flight. */
  close(): Promise<void>;
}

const BODY_LIMIT_BYTES = 16 * 1024;
const FAILURE_STATUS = { unavailable: 503, error: 502, timeout: 504 } as const;

/** An answer other than success, with the code the client maps back. */
class WireProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

type Handler = (request: IncomingMessage, response: ServerResponse, signal: AbortSignal) => Promise<void>;

export const startSimulatorServer = async (options: SimulatorServerOptions): Promise<SimulatorServer> => {
  const { phoneSystem } = options;
  const feed = new ChangeFeed(phoneSystem, { pollMs: options.changePollMs ?? 250, minGapMs: 100 });
  const inFlight = new Set<AbortController>();
  const streams = new Set<ServerResponse>();
  const keepaliveMs = options.keepaliveMs ?? 15_000;

  const routes: Record<string, Partial<Record<string, Handler>>> = {
    [wirePaths.center]: { GET: async (_req, res) => sendJson(res, 200, options.center) },
    [wirePaths.calls]: {
      GET: async (_req, res, signal) => sendJson(res, 200, { calls: await phoneSystem.listCalls(signal) }),
      POST: async (req, res, signal) => {
        await phoneSystem.placeCall(parse(placeCallBodySchema, await readJson(req), 'the call'), signal);
        sendEmpty(res);
      },
    },
    [wirePaths.subscribers]: {
      GET: async (_req, res, signal) => sendJson(res, 200, { subscribers: await phoneSystem.listSubscribers(signal) }),
    },
    [wirePaths.past]: { GET: (req, res, signal) => sendPast(phoneSystem, req, res, signal, options.onInternalError) },
    [wirePaths.changes]: { GET: async (_req, res, signal) => streamChanges(feed, res, signal, keepaliveMs, streams) },
    [wirePaths.failure]: {
      PUT: async (req, res) => {
        const { mode } = parse(simulatorFailureSchema, await readJson(req), 'the failure');
        await controlOf(phoneSystem).setFailure(mode);
        sendEmpty(res);
      },
    },
    [wirePaths.nextPlacedCall]: {
      PUT: async (req, res) => {
        await controlOf(phoneSystem).scriptNextPlacedCall(parse(nextPlacedCallSchema, await readJson(req), 'the call script'));
        sendEmpty(res);
      },
    },
  };

  let drained: (() => void) | undefined;
  const server = createServer((req, res) => {
    const abort = new AbortController();
    inFlight.add(abort);
    // A client that goes away (its deadline passed) ends what it asked for: a stall, the past, a change stream.
    res.once('close', () => {
      inFlight.delete(abort);
      abort.abort();
      if (inFlight.size === 0) drained?.();
    });
    void handle(routes, req, res, abort.signal, options.onInternalError);
  });
  await listen(server, options.host, options.port);
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${port}`,
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      feed.stop();
      for (const stream of streams) stream.end();
      // Why the requests end, so the past being sent can say it (a client that left needs no reason).
      for (const abort of inFlight) abort.abort(new WireProblem(503, 'unavailable', 'the simulator is shutting down'));
      // Every answer is sent once its request ends; then no connection has anything left to carry.
      await new Promise<void>((resolve) => (inFlight.size === 0 ? resolve() : (drained = resolve)));
      server.closeAllConnections();
      await closed;
    },
  };
};

const listen = (server: Server, host: string, port: number) =>
  new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });

const handle = async (
  routes: Record<string, Partial<Record<string, Handler>>>,
  req: IncomingMessage,
  res: ServerResponse,
  signal: AbortSignal,
  onInternalError: (error: unknown) => void,
): Promise<void> => {
  try {
    const path = new URL(req.url ?? '/', 'http://simulator').pathname;
    const methods = routes[path];
    if (!methods) throw new WireProblem(404, 'not_found', `No route ${req.method} ${path}: this simulator serves the wire's version 1 (/v1/...)`);
    const handler = methods[req.method ?? ''];
    if (!handler) {
      res.setHeader('allow', Object.keys(methods).join(', '));
      throw new WireProblem(405, 'method_not_allowed', `${path} answers ${Object.keys(methods).join(', ')}, not ${req.method}`);
    }
    await handler(req, res, signal);
  } catch (error) {
    sendError(res, error, onInternalError);
  }
};

const controlOf = (phoneSystem: PhoneSystem) => {
  if (!phoneSystem.control)
    throw new WireProblem(404, 'control_disabled', 'this simulator takes no drills: start it with --control to enable them');
  return phoneSystem.control;
};

const readJson = async (req: IncomingMessage): Promise<unknown> => {
  if (!/^application\/json\b/i.test(req.headers['content-type'] ?? ''))
    throw new WireProblem(415, 'unsupported_media_type', 'the body must be application/json');
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    if (bytes > BODY_LIMIT_BYTES) throw new WireProblem(413, 'payload_too_large', `the body is over ${BODY_LIMIT_BYTES} bytes`);
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new WireProblem(400, 'invalid_request', 'the body is not valid JSON');
  }
};

const parse = <T>(schema: z.ZodType<T>, value: unknown, what: string): T => {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues = result.error.issues.map((issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`).join('; ');
  throw new WireProblem(400, 'invalid_request', `${what} is not valid: ${issues}`);
};

/** The past of the asked range, a batch a line, pulling the next batch only once the client took the last. */
const sendPast = async (
  phoneSystem: PhoneSystem,
  req: IncomingMessage,
  res: ServerResponse,
  signal: AbortSignal,
  onInternalError: (error: unknown) => void,
) => {
  if (!phoneSystem.backfill) throw new WireProblem(404, 'not_found', 'this phone system cannot tell its past');
  const query = Object.fromEntries(new URL(req.url ?? '/', 'http://simulator').searchParams);
  const range = parse(pastQuerySchema, query, 'the range');
  res.writeHead(200, { 'content-type': NDJSON, 'cache-control': 'no-store' });
  try {
    for await (const batch of phoneSystem.backfill(range, signal)) await writeLine(res, batch);
  } catch (error) {
    // The status is sent: the error goes as the last line, and the client raises it.
    const cause = signal.aborted ? signal.reason : error;
    if (!signal.aborted || cause instanceof WireProblem) await writeLine(res, { error: wireError(cause, onInternalError).body });
  }
  res.end();
};

/** A line to a stream; resolves once the client has taken it (or is gone), so at most one waits in memory. */
const writeLine = (res: ServerResponse, value: unknown): Promise<void> =>
  new Promise((resolve) => {
    if (res.destroyed || res.write(`${JSON.stringify(value)}\n`)) return resolve();
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });

/** A tick at once (the client may have missed changes while it was not watching), then one per change, and keepalives. */
const streamChanges = (feed: ChangeFeed, res: ServerResponse, signal: AbortSignal, keepaliveMs: number, streams: Set<ServerResponse>) => {
  res.writeHead(200, { 'content-type': NDJSON, 'cache-control': 'no-store' });
  const send = (event: 'change' | 'keepalive') => {
    // A client that has not taken the last line needs no more of them: the next one it reads says as much.
    if (res.writableNeedDrain) return;
    res.write(`${JSON.stringify({ event })}\n`);
  };
  send('change');
  streams.add(res);
  const stopListening = feed.listen(() => send('change'));
  const keepalive = setInterval(() => send('keepalive'), keepaliveMs);
  signal.addEventListener(
    'abort',
    () => {
      streams.delete(res);
      stopListening();
      clearInterval(keepalive);
    },
    { once: true },
  );
};

/** The status and body of an error: the codes of the errors a phone system raises, or `internal` for a bug. */
const wireError = (error: unknown, onInternalError: (error: unknown) => void): { status: number; body: WireError } => {
  if (error instanceof WireProblem) return { status: error.status, body: { code: error.code, message: error.message } };
  if (error instanceof SubscriberRejection) return { status: 409, body: { code: error.code, message: error.message } };
  if (error instanceof ProviderFailure) return { status: FAILURE_STATUS[error.kind], body: { code: error.kind, message: error.message } };
  onInternalError(error);
  return { status: 500, body: { code: 'internal', message: 'the simulator failed on its side (see its output)' } };
};

const sendError = (res: ServerResponse, error: unknown, onInternalError: (error: unknown) => void) => {
  const { status, body } = wireError(error, onInternalError);
  if (res.headersSent) return void res.end();
  sendJson(res, status, { error: body });
};

const sendJson = (res: ServerResponse, status: number, body: unknown) => {
  if (res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
};

const sendEmpty = (res: ServerResponse) => {
  res.writeHead(204);
  res.end();
};
