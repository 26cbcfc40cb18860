/**
 * Benchmark reference: the limit of Node on this machine. `list` serves precomputed bytes (with
 * gzip and a 304) from node:http; `stream` opens every request as an event stream that sends the
 * same precompressed opening (the service's snapshot event) and stays open; `noop` is a bare
 * Fastify POST that parses JSON and answers 204.
 * The 304 carries the headers the service's 304 carries (given as JSON pairs), so both send the
 * same bytes but the date.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { constants, createGzip } from 'node:zlib';
import Fastify from 'fastify';

const kind = process.argv[2];

const listen = (port: number) => process.stdout.write(`ready ${port}\n`);

if (kind === 'list') {
  const [, , , bodyFile, gzipFile, etag, notModifiedJson] = process.argv;
  const notModifiedHeaders = JSON.parse(notModifiedJson ?? '[]') as string[];
  const body = readFileSync(bodyFile as string);
  const gzipped = readFileSync(gzipFile as string);
  const server = createServer((request, response) => {
    if (request.headers['if-none-match'] === etag) {
      response.writeHead(304, notModifiedHeaders);
      return response.end();
    }
    const gzip = /\bgzip\b/.test(request.headers['accept-encoding'] ?? '');
    response.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      etag: etag as string,
      'content-length': gzip ? gzipped.length : body.length,
      ...(gzip ? { 'content-encoding': 'gzip' } : {}),
    });
    response.end(gzip ? gzipped : body);
  });
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    listen(typeof address === 'object' && address ? address.port : 0);
  });
} else if (kind === 'stream') {
  const opening = readFileSync(process.argv[3] as string);
  // Compressed once, flushed as a stream is so the reader can decode it before the stream ends.
  const gzip = createGzip();
  const chunks: Buffer[] = [];
  gzip.on('data', (chunk: Buffer) => chunks.push(chunk));
  gzip.write(opening);
  await new Promise<void>((resolve) => gzip.flush(constants.Z_SYNC_FLUSH, () => resolve()));
  const compressed = Buffer.concat(chunks);
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'content-encoding': 'gzip' });
    response.write(compressed);
  });
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    listen(typeof address === 'object' && address ? address.port : 0);
  });
} else {
  const app = Fastify();
  app.post('/noop', async (_request, reply) => reply.code(204).send());
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  listen(typeof address === 'object' && address ? address.port : 0);
}
process.on('SIGTERM', () => process.exit(0));
