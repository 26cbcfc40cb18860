/**
 * Gzip for JSON answers worth it (1 KiB and more) when the client accepts it. Analytics answers are
 * tens to hundreds of KiB of repetitive JSON (a day of 5-minute service-level buckets is 131 KB,
 * 12 KB gzipped); on a slow link that difference is most of the time to the first chart. An answer
 * that chose its own encoding (the calls list, which caches its gzip with its snapshot) and streams
 * are left as they are.
 */
import { gzip } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { acceptsGzip, GZIP_MIN_BYTES } from './send-json.js';

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\b/;

export const addJsonCompression = (app: FastifyInstance) => {
  // A callback hook: it runs on every API answer, and most are below the threshold.
  app.addHook('onSend', (request, reply, payload, done) => {
    const length = typeof payload === 'string' ? Buffer.byteLength(payload) : Buffer.isBuffer(payload) ? payload.length : 0;
    if (
      length < GZIP_MIN_BYTES ||
      reply.statusCode === 304 ||
      reply.hasHeader('content-encoding') ||
      !JSON_TYPE.test(String(reply.getHeader('content-type') ?? '')) ||
      !acceptsGzip(request.headers['accept-encoding'])
    ) {
      done(null, payload);
      return;
    }
    gzip(payload as string | Buffer, (error, compressed) => {
      if (error) {
        // Nothing lost: the answer goes out as it is.
        done(null, payload);
        return;
      }
      const vary = String(reply.getHeader('vary') ?? '');
      if (!/accept-encoding/i.test(vary)) reply.header('vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding');
      reply.header('content-encoding', 'gzip');
      reply.removeHeader('content-length');
      done(null, compressed);
    });
  });
};
