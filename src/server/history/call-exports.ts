/**
 * Exports under way: each runs in a thread of its own, on a connection of its own, so the event
 * loop only hands chunks to the socket and neither the live view nor the heavy-read pool gives up
 * a connection. The reply's stream asks the thread for a chunk only when the socket takes more
 * (backpressure from the client to the cursor), and destroying it (a client that went away)
 * stops the read.
 */
import { Readable } from 'node:stream';
import { SlotsExhausted } from '../auth/concurrency-slots.js';
import { startWorker } from '../worker-thread.js';
import { compileExport, exportQuery, type CallExportRequest } from './call-export.js';
import { batchesOf, EXPORT_BATCH_ROWS, exportChunks } from './call-export-format.js';
import type { ExportCommand, ExportJob, ExportMessage } from './call-export-worker.js';
import type { CallRow } from './call-rows.js';
import type { HistoryDb } from './history-tables.js';
import type { HistoryLocation } from './open-history-database.js';

/** Files written at once by the whole service; each holds a thread and a database connection. */
export const MAX_CONCURRENT_EXPORTS = 2;
/** An export thread's heap holds a batch of rows and a chunk or two: this bound only stops a runaway. */
const EXPORT_HEAP_MB = 64;
const EXPORT_YOUNG_MB = 2;
/** Chunks of text the reply's stream holds before it stops asking for more. */
const STREAM_HIGH_WATER = 2;
/** How long a stopped export may take to close its cursor and connection before its thread is ended. */
const STOP_GRACE_MS = 2000;

export class CallExports {
  private running = 0;
  private threads = 0;

  constructor(
    private readonly location: HistoryLocation,
    /** A database no other thread can open (SQLite in memory): the export reads it here, in turn with everything else. */
    private readonly inline?: HistoryDb,
    private readonly cap = MAX_CONCURRENT_EXPORTS,
  ) {}

  /** Files being sent now. */
  get active(): number {
    return this.running;
  }

  /** Export threads alive, a stopped one until it has closed its cursor and connection. */
  get liveThreads(): number {
    return this.threads;
  }

  /** The file's text, chunk by chunk; throws SlotsExhausted when MAX_CONCURRENT_EXPORTS are under way. */
  open(request: CallExportRequest): Readable {
    if (this.running >= this.cap) throw new SlotsExhausted('heavy-queries', 'total', this.cap);
    if (this.inline) return this.openInline(request);
    this.running += 1;
    const worker = this.start({
      location: this.location,
      statement: compileExport(this.location.kind, request),
      file: {
        provider: request.provider,
        format: request.format,
        retentionDays: request.retentionDays,
        ...(request.retentionCut === undefined ? {} : { retentionCut: request.retentionCut }),
      },
    });
    let finished = false;
    // Strings, not bytes (see CHUNK_CHARS): the socket encodes each one as it writes it.
    const stream = new Readable({
      objectMode: true,
      highWaterMark: STREAM_HIGH_WATER,
      read: () => worker.postMessage('more' satisfies ExportCommand),
      destroy: (error, callback) => {
        if (!finished) {
          worker.postMessage('stop' satisfies ExportCommand);
          // A thread stuck in a long statement is not waited for.
          setTimeout(() => void worker.terminate(), STOP_GRACE_MS).unref();
        }
        callback(error);
      },
    });
    worker.on('message', (message: ExportMessage) => {
      if (message.kind === 'chunk') stream.push(message.text);
      else if (message.kind === 'end') {
        finished = true;
        stream.push(null);
      } else if (message.kind === 'failed') stream.destroy(new Error(message.message));
    });
    worker.on('error', (error) => stream.destroy(error));
    worker.once('exit', (code) => {
      if (!finished && !stream.destroyed) stream.destroy(new Error(`the export thread exited (code ${code})`));
    });
    // An export counts until its stream closes; a stopped thread then has STOP_GRACE_MS to let its connection go.
    stream.once('close', () => {
      this.running -= 1;
    });
    return stream;
  }

  private openInline(request: CallExportRequest): Readable {
    const db = this.inline as HistoryDb;
    this.running += 1;
    const stream = Readable.from(
      exportChunks(batchesOf(exportQuery(db, request).stream(EXPORT_BATCH_ROWS) as AsyncIterable<CallRow>), request),
      {
        highWaterMark: STREAM_HIGH_WATER,
      },
    );
    stream.once('close', () => {
      this.running -= 1;
    });
    return stream;
  }

  private start(job: ExportJob) {
    const worker = startWorker(import.meta.url, './call-export-worker', {
      workerData: job,
      resourceLimits: { maxOldGenerationSizeMb: EXPORT_HEAP_MB, maxYoungGenerationSizeMb: EXPORT_YOUNG_MB },
    });
    this.threads += 1;
    worker.once('exit', () => {
      this.threads -= 1;
    });
    return worker;
  }
}
