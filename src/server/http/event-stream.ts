/**
 * A Server-Sent Events response: frames written as they come, a comment as heartbeat, a cap on
 * what a slow reader may leave buffered (past it the stream is dropped and the client resumes
 * with Last-Event-ID), and gzip for clients that accept it — without a buffering middleware:
 * the parts every stream sends alike (a change's data) are compressed once and shared, the
 * per-stream parts go as stored deflate blocks, and every frame is flushed whole.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { constants, deflateRawSync } from 'node:zlib';
import { acceptsGzip } from './send-json.js';

/**
 * Text of an event's data that many streams send: encoded, measured and compressed at most once,
 * not once per stream (a thousand streams on a change of a large list each counted its bytes anew).
 */
export class SharedText {
  private deflated: Buffer | undefined;
  /** Made only for streams sent as they are: a compressing stream needs the count alone. */
  private encoded: Buffer | undefined;
  private length: number | undefined;

  constructor(readonly text: string) {}

  /** The text as UTF-8, for streams sent as they are. */
  bytes(): Buffer {
    this.encoded ??= Buffer.from(this.text, 'utf8');
    return this.encoded;
  }

  /** How many bytes the text is in UTF-8. */
  get byteLength(): number {
    this.length ??= this.encoded?.length ?? Buffer.byteLength(this.text, 'utf8');
    return this.length;
  }

  /** Raw deflate, sync-flushed: a run of blocks that refers to nothing before it and ends on a byte boundary. */
  deflate(): Buffer {
    this.deflated ??= deflateRawSync(this.encoded ?? Buffer.from(this.text, 'utf8'), {
      level: 6,
      finishFlush: constants.Z_SYNC_FLUSH,
    });
    return this.deflated;
  }
}

/** A piece of a frame: text of this stream alone, or text shared with other streams. */
export type FramePart = string | SharedText;

const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
const STORED_MAX = 0xffff;

/** Uncompressed bytes as non-final stored deflate blocks. */
const storedBlocks = (bytes: Buffer): Buffer[] => {
  const blocks: Buffer[] = [];
  for (let start = 0; start < bytes.length; start += STORED_MAX) {
    const part = bytes.subarray(start, start + STORED_MAX);
    const header = Buffer.alloc(5);
    header.writeUInt16LE(part.length, 1);
    header.writeUInt16LE(~part.length & 0xffff, 3);
    blocks.push(header, part);
  }
  return blocks;
};

export interface EventStreamOptions {
  heartbeatMs: number;
  retryMs: number;
  /** Bytes a client may leave unread before the stream is dropped. */
  maxBufferedBytes: number;
  /** Headers to send besides the stream's own (security headers set by earlier hooks are kept too). */
  headers?: Record<string, string>;
}

export class EventStream {
  private closed = false;
  private readonly heartbeat: NodeJS.Timeout;
  private readonly onClose = new Set<() => void>();
  /** Bytes written, before compression and after, for metrics and benchmarks. */
  written = { plain: 0, wire: 0 };

  private constructor(
    private readonly reply: FastifyReply,
    private readonly gzip: boolean,
    private readonly options: EventStreamOptions,
  ) {
    const raw = reply.raw;
    raw.on('close', () => this.finish());
    this.heartbeat = setInterval(() => this.comment('heartbeat'), options.heartbeatMs);
    this.heartbeat.unref();
  }

  /** Takes the response over from Fastify and sends the stream's headers and `retry:`. */
  static open(request: FastifyRequest, reply: FastifyReply, options: EventStreamOptions): EventStream {
    const gzip = acceptsGzip(request.headers['accept-encoding']);
    reply.hijack();
    const inherited = Object.fromEntries(Object.entries(reply.getHeaders()).map(([name, value]) => [name, String(value)]));
    reply.raw.writeHead(200, {
      ...inherited,
      ...options.headers,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      'x-accel-buffering': 'no',
      vary: 'Accept-Encoding',
      ...(gzip ? { 'content-encoding': 'gzip' } : {}),
    });
    reply.raw.socket?.setNoDelay(true);
    const stream = new EventStream(reply, gzip, options);
    if (gzip) stream.writeWire([GZIP_HEADER]);
    stream.write([`retry: ${options.retryMs}\n\n`]);
    return stream;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Runs `cleanup` once when the stream ends, whoever ends it. */
  whenClosed(cleanup: () => void): void {
    if (this.closed) cleanup();
    else this.onClose.add(cleanup);
  }

  send(event: string, id: string, data: FramePart[]): void {
    this.write([`id: ${id}\nevent: ${event}\ndata: `, ...data, '\n\n']);
  }

  comment(text: string): void {
    this.write([`: ${text}\n\n`]);
  }

  /** Ends the stream cleanly (service shutdown): the client reconnects with its last event ID. */
  end(): void {
    if (this.closed) return;
    this.reply.raw.end();
    this.finish();
  }

  private write(parts: FramePart[]): void {
    if (this.closed) return;
    const wire: Buffer[] = [];
    let own = '';
    const flushOwn = () => {
      if (own === '') return;
      const bytes = Buffer.from(own, 'utf8');
      this.written.plain += bytes.length;
      wire.push(...(this.gzip ? storedBlocks(bytes) : [bytes]));
      own = '';
    };
    for (const part of parts) {
      if (typeof part === 'string') {
        own += part;
        continue;
      }
      flushOwn();
      // What every stream sends alike is encoded, counted and compressed once, for all of them.
      this.written.plain += part.byteLength;
      wire.push(this.gzip ? part.deflate() : part.bytes());
    }
    flushOwn();
    this.writeWire(wire);
  }

  private writeWire(chunks: Buffer[]): void {
    const raw = this.reply.raw;
    const frame = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
    this.written.wire += frame.length;
    raw.write(frame);
    // A reader this far behind is not reading: drop it rather than hold its backlog in memory.
    if (raw.writableLength > this.options.maxBufferedBytes) raw.destroy();
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.heartbeat);
    for (const cleanup of this.onClose) cleanup();
    this.onClose.clear();
  }
}
