/** Sends a pre-serialized JSON body with its ETag: 304 when the client has it, gzip when accepted. */
import type { FastifyReply, FastifyRequest } from 'fastify';

export interface PreparedBody {
  body: Buffer;
  etag: string;
  gzip(): Promise<Buffer>;
}

const opaque = (tag: string) => tag.trim().replace(/^W\//, '');

/** If-None-Match uses the weak comparison (RFC 9110 13.1.2). */
export const matchesIfNoneMatch = (header: string | undefined, etag: string): boolean => {
  if (!header) return false;
  // A poller sends back the very tag it was given: no list to take apart.
  if (header === etag) return true;
  if (header.trim() === '*') return true;
  const wanted = opaque(etag);
  return header.split(',').some((tag) => opaque(tag) === wanted);
};

/** True when Accept-Encoding allows gzip (a q=0 refuses it). */
export const acceptsGzip = (header: string | undefined): boolean => {
  if (!header) return false;
  return header.split(',').some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    if (coding?.trim() !== 'gzip' && coding?.trim() !== '*') return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
};

/** Bodies smaller than this are sent as they are: gzip would save nothing worth its cost. */
export const GZIP_MIN_BYTES = 1024;

export const sendPreparedJson = async (request: FastifyRequest, reply: FastifyReply, prepared: PreparedBody) => {
  reply.header('etag', prepared.etag).header('vary', 'Accept-Encoding').header('cache-control', 'no-cache');
  if (matchesIfNoneMatch(request.headers['if-none-match'], prepared.etag)) return reply.code(304).send();
  reply.type('application/json; charset=utf-8');
  if (prepared.body.length >= GZIP_MIN_BYTES && acceptsGzip(request.headers['accept-encoding'])) {
    return reply.header('content-encoding', 'gzip').send(await prepared.gzip());
  }
  return reply.send(prepared.body);
};
