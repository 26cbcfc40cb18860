/**
 * Slots for long-lived streams (text/event-stream and the like), counted apart from requests in
 * flight: a stream is open for minutes on purpose, and must neither use up its token's requests
 * nor let one token hold every connection. A stream route declares `config: { stream: true }` (so
 * the auth hook does not count it as a request) and opens its stream with
 * `app.streamSlots.open(request, reply)`: past its token's cap that throws, answered
 * `429 too_many_streams`, or `503 service_busy` past the service's.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ConcurrencySlots, type ReleaseSlot, type SlotCaps } from '../auth/concurrency-slots.js';

declare module 'fastify' {
  interface FastifyInstance {
    streamSlots: StreamSlots;
  }
}

export class StreamSlots {
  private readonly slots: ConcurrencySlots;

  constructor(caps: SlotCaps) {
    this.slots = new ConcurrencySlots('streams', caps);
  }

  /** Takes a slot for the request's token, given back when the stream's connection closes. */
  open(request: FastifyRequest, reply: FastifyReply): ReleaseSlot {
    const release = this.slots.acquire(request.principal);
    reply.raw.once('close', release);
    return release;
  }

  /** Streams open for one token, or for all. */
  inUse(request?: FastifyRequest): number {
    return this.slots.inUse(request?.principal);
  }
}

/** Decorates the app with its stream slots; register it at the root, before the routes. */
export const streamSlotsPlugin = fp(async (app: FastifyInstance, caps: SlotCaps) => {
  app.decorate('streamSlots', new StreamSlots(caps));
});
