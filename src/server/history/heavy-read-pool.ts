/**
 * Reader threads for heavy reads, so a week-long window list or analytics query never stalls the
 * event loop that answers everyone else. Reads wait in one queue per lane (a lane per token) and
 * the threads take them round-robin across lanes: a tenant's read waits for at most one read of
 * each other busy lane (and those under way), never for another tenant's whole burst.
 */
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { startWorker } from '../worker-thread.js';
import type { ReadAnswer, ReaderMessage, ReadRequest } from './heavy-read-worker.js';
import type { HeavyReadArgs, HeavyReader, HeavyReadName, HeavyReadResults } from './heavy-reads.js';
import type { HistoryLocation } from './open-history-database.js';

/** One core stays with the event loop; the readers take the rest, up to four. */
export const defaultReaderThreads = (): number => Math.max(1, Math.min(4, availableParallelism() - 1));

/** A reader's heap holds one answer at a time (a 10,000-call list is a few megabytes): this bound only stops a runaway. */
const READER_HEAP_MB = 256;
/**
 * A read allocates rows and records by the thousand, nearly all short-lived: a roomy young
 * generation keeps scavenges rare, and with them the GC work that runs on the process's shared
 * threads at the event loop's priority.
 */
const READER_YOUNG_MB = 32;
/** How long a closing reader may take to close its connection before its thread is ended. */
const CLOSE_GRACE_MS = 2000;

interface Job {
  request: Omit<ReadRequest, 'id'>;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

interface Reader {
  worker: Worker;
  job?: { id: number } & Job;
}

export class HeavyReadPool implements HeavyReader {
  private readonly readers: Reader[] = [];
  /** Waiting jobs by lane; the map's order is the round-robin order. */
  private readonly lanes = new Map<string, Job[]>();
  private nextID = 1;
  private closed = false;

  constructor(
    private readonly location: HistoryLocation,
    private readonly threads = defaultReaderThreads(),
  ) {}

  read<K extends HeavyReadName>(name: K, args: HeavyReadArgs[K], lane: string): Promise<HeavyReadResults[K]> {
    if (this.closed) return Promise.reject(new Error('the history readers are closed'));
    return new Promise<unknown>((resolve, reject) => {
      const queue = this.lanes.get(lane) ?? [];
      queue.push({ request: { name, args }, resolve, reject });
      this.lanes.set(lane, queue);
      this.dispatch();
    }).then((value) => revive(name, value) as HeavyReadResults[K]);
  }

  /** Fails the reads still waiting, lets each reader close its connection, and ends the threads. */
  async close(): Promise<void> {
    this.closed = true;
    const gone = new Error('the history readers closed');
    for (const queue of this.lanes.values()) for (const job of queue) job.reject(gone);
    this.lanes.clear();
    await Promise.all(this.readers.splice(0).map((reader) => this.stop(reader, gone)));
  }

  private async stop(reader: Reader, gone: Error): Promise<void> {
    reader.job?.reject(gone);
    reader.job = undefined;
    const exited = new Promise<void>((resolve) => reader.worker.once('exit', () => resolve()));
    reader.worker.postMessage('close' satisfies ReaderMessage);
    // A reader stuck in a long statement is not waited for.
    const timer = setTimeout(() => void reader.worker.terminate(), CLOSE_GRACE_MS);
    await exited;
    clearTimeout(timer);
  }

  private dispatch(): void {
    while (this.lanes.size > 0) {
      const reader = this.idleReader();
      if (!reader) return;
      const job = this.nextJob();
      if (!job) return;
      const id = this.nextID++;
      reader.job = { id, ...job };
      // A read under way keeps the process alive; an idle reader does not.
      reader.worker.ref();
      reader.worker.postMessage({ id, ...job.request } satisfies ReaderMessage);
    }
  }

  /** The first lane's oldest job; the lane then goes to the back of the line. */
  private nextJob(): Job | undefined {
    const [lane, queue] = this.lanes.entries().next().value ?? [];
    if (lane === undefined || queue === undefined) return undefined;
    const job = queue.shift();
    this.lanes.delete(lane);
    if (queue.length > 0) this.lanes.set(lane, queue);
    return job;
  }

  private idleReader(): Reader | undefined {
    const idle = this.readers.find((reader) => reader.job === undefined);
    if (idle || this.readers.length >= this.threads) return idle;
    return this.startReader();
  }

  private startReader(): Reader {
    const worker = startWorker(import.meta.url, './heavy-read-worker', {
      workerData: this.location,
      resourceLimits: { maxOldGenerationSizeMb: READER_HEAP_MB, maxYoungGenerationSizeMb: READER_YOUNG_MB },
    });
    const reader: Reader = { worker };
    worker.on('message', (answer: ReadAnswer) => this.settle(reader, answer));
    worker.on('error', (error) => this.lose(reader, error));
    worker.on('exit', (code) => this.lose(reader, new Error(`a history reader thread exited (code ${code})`)));
    worker.unref();
    this.readers.push(reader);
    return reader;
  }

  private settle(reader: Reader, answer: ReadAnswer): void {
    const job = reader.job;
    if (!job || job.id !== answer.id) return;
    reader.job = undefined;
    reader.worker.unref();
    if (answer.ok) job.resolve(answer.value);
    else job.reject(new Error(answer.message));
    this.dispatch();
  }

  /** A reader that died fails its read; the next read starts a new one. */
  private lose(reader: Reader, error: Error): void {
    const index = this.readers.indexOf(reader);
    if (index < 0) return;
    this.readers.splice(index, 1);
    reader.job?.reject(error);
    reader.job = undefined;
    if (!this.closed) this.dispatch();
  }
}

/** A list's bytes cross the thread boundary as a plain Uint8Array: wrap them as a Buffer again, without a copy. */
const revive = (name: HeavyReadName, value: unknown): unknown => {
  if (name !== 'windowList' || typeof value !== 'object' || value === null || !('body' in value)) return value;
  const body = value.body as Uint8Array;
  return { ...value, body: Buffer.from(body.buffer, body.byteOffset, body.byteLength) };
};
