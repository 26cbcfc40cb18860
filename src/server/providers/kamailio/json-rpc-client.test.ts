import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ProviderFailure } from '../phone-system.js';
import { createJsonRpcClient, JsonRpcError } from './json-rpc-client.js';

const answering =
  (status: number, body: string): typeof fetch =>
  async () =>
    new Response(body, { status, headers: { 'content-type': 'application/json' } });

const failure = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ProviderFailure);
  return error as ProviderFailure;
};

describe('JSON-RPC client', () => {
  it('posts a JSON-RPC 2.0 request and returns the result', async () => {
    const sent: unknown[] = [];
    const call = createJsonRpcClient({
      url: 'http://127.0.0.1:1/RPC',
      fetch: async (_url, init) => {
        sent.push(JSON.parse(String(init?.body)));
        return new Response('{"jsonrpc":"2.0","result":[],"id":1}');
      },
    });
    await expect(call('dlg.list', [], AbortSignal.timeout(1000))).resolves.toEqual([]);
    expect(sent).toEqual([{ jsonrpc: '2.0', method: 'dlg.list', params: [], id: 1 }]);
  });

  it("reports Kamailio's error with its code and message", async () => {
    const call = createJsonRpcClient({
      url: 'http://127.0.0.1:1/RPC',
      fetch: answering(500, '{"jsonrpc":"2.0","error":{"code":500,"message":"AOR not found in location table"},"id":1}'),
    });
    const error = await failure(call('ul.lookup', ['location', '1001'], AbortSignal.timeout(1000)));
    expect(error).toBeInstanceOf(JsonRpcError);
    expect(error).toMatchObject({ kind: 'error', rpcCode: 500, rpcMessage: 'AOR not found in location table' });
  });

  it('reports an HTTP error or an answer without a result as an error', async () => {
    const proxyError = createJsonRpcClient({ url: 'http://127.0.0.1:1/RPC', fetch: answering(502, '<html>bad gateway</html>') });
    expect(await failure(proxyError('dlg.list', [], AbortSignal.timeout(1000)))).toMatchObject({ kind: 'error', message: /HTTP 502/ });
    const noResult = createJsonRpcClient({ url: 'http://127.0.0.1:1/RPC', fetch: answering(200, '{"jsonrpc":"2.0","id":1}') });
    expect(await failure(noResult('dlg.list', [], AbortSignal.timeout(1000)))).toMatchObject({ kind: 'error' });
  });

  it('reports a refused connection as unavailable', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    const call = createJsonRpcClient({ url: `http://127.0.0.1:${port}/RPC` });
    expect(await failure(call('dlg.list', [], AbortSignal.timeout(2000)))).toMatchObject({ kind: 'unavailable', message: /ECONNREFUSED/ });
  });

  it('reports an answer that does not come before the signal aborts as a timeout', async () => {
    const server = createServer(() => undefined);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const call = createJsonRpcClient({ url: `http://127.0.0.1:${port}/RPC` });
      expect(await failure(call('dlg.list', [], AbortSignal.timeout(100)))).toMatchObject({ kind: 'timeout' });
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
