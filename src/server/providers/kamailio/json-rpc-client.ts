/** A JSON-RPC 2.0 client for Kamailio's jsonrpcs module over HTTP, failing with the provider's error kinds. */
import { ProviderFailure } from '../phone-system.js';

/** Kamailio answered the request with a JSON-RPC error; `rpcCode` and the message are Kamailio's. */
export class JsonRpcError extends ProviderFailure {
  constructor(
    readonly method: string,
    readonly rpcCode: number,
    readonly rpcMessage: string,
  ) {
    super('error', `${method} failed: ${rpcMessage} (${rpcCode})`);
    this.name = 'JsonRpcError';
  }
}

export type JsonRpcCall = (method: string, params: readonly (string | number)[], signal: AbortSignal) => Promise<unknown>;

export interface JsonRpcClientOptions {
  url: string;
  /** Injected in tests; the global fetch otherwise. */
  fetch?: typeof fetch;
}

interface RpcAnswer {
  result?: unknown;
  error?: { code?: unknown; message?: unknown };
}

/** Node's fetch hides the socket error one or two causes deep. */
const socketErrorCode = (error: unknown): string | undefined => {
  for (let cause = error; cause instanceof Error; cause = cause.cause)
    if ('code' in cause && typeof cause.code === 'string') return cause.code;
  return undefined;
};

const UNREACHABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EPIPE', 'UND_ERR_SOCKET']);

const transportFailure = (method: string, error: unknown, signal: AbortSignal): ProviderFailure => {
  if (signal.aborted) return new ProviderFailure('timeout', `${method} did not answer in time`);
  const code = socketErrorCode(error);
  if (code !== undefined && UNREACHABLE.has(code)) return new ProviderFailure('unavailable', `Kamailio cannot be reached (${code})`);
  return new ProviderFailure('error', `${method} failed: ${(error as Error).message}`);
};

const parseAnswer = (text: string): RpcAnswer | undefined => {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null ? (parsed as RpcAnswer) : undefined;
  } catch {
    return undefined;
  }
};

export const createJsonRpcClient = ({ url, fetch: fetchImpl = fetch }: JsonRpcClientOptions): JsonRpcCall => {
  let nextID = 1;
  return async (method, params, signal) => {
    const id = nextID++;
    let response: Response;
    let text: string;
    try {
      response = await fetchImpl(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', method, params, id }),
        signal,
      });
      text = await response.text();
    } catch (error) {
      throw transportFailure(method, error, signal);
    }
    // jsonrpcs reports RPC errors with an HTTP error status and the error object in the body.
    const answer = parseAnswer(text);
    if (answer?.error)
      throw new JsonRpcError(method, Number(answer.error.code ?? response.status), String(answer.error.message ?? response.statusText));
    if (!response.ok) throw new ProviderFailure('error', `${method} failed: HTTP ${response.status} ${response.statusText}`);
    if (!answer || !('result' in answer)) throw new ProviderFailure('error', `${method} answered without a JSON-RPC result`);
    return answer.result;
  };
};
