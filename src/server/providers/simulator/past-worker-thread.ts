/**
 * Runs a simulated past in a worker thread: the simulation is CPU-bound for seconds to minutes,
 * and there it never stalls the service's event loop. Batches stream back as they are pulled.
 */
import type { Worker } from 'node:worker_threads';
import { startWorker } from '../../worker-thread.js';
import type { PastCalls } from '../phone-system.js';
import type { PastRun } from './simulated-past.js';

/** Batches asked for ahead of the consumer: one is simulated while the previous is written. */
const PULL_AHEAD = 2;
/**
 * The worker's heap holds one center (its live calls and pending events), never the past it
 * yields: this bound only turns a runaway into an error instead of a dead service.
 */
const WORKER_HEAP_MB = 1024;
/** The run allocates short-lived call records at a high rate: a roomy young generation keeps scavenges rare. */
const WORKER_YOUNG_MB = 32;

type Message = { batch: PastCalls } | { done: true };

export async function* pastFromWorker(run: PastRun, signal: AbortSignal): AsyncGenerator<PastCalls> {
  signal.throwIfAborted();
  const worker = startPastWorker(run);
  const inbox = new Inbox(worker, signal);
  try {
    for (let i = 0; i < PULL_AHEAD; i += 1) worker.postMessage('pull');
    for (let message = await inbox.take(); 'batch' in message; message = await inbox.take()) {
      worker.postMessage('pull');
      yield message.batch;
    }
  } finally {
    inbox.close();
    await worker.terminate();
  }
}

const startPastWorker = (run: PastRun): Worker =>
  startWorker(import.meta.url, './past-worker', {
    workerData: run,
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB, maxYoungGenerationSizeMb: WORKER_YOUNG_MB },
  });

/** The worker's messages in arrival order; an abort rejects the next take at once, a crash once the messages before it are taken. */
class Inbox {
  private readonly queue: Message[] = [];
  private failure: unknown;
  private waiting: { resolve: (message: Message) => void; reject: (error: unknown) => void } | undefined;
  private readonly onAbort = () => this.fail(this.signal.reason);

  constructor(
    worker: Worker,
    private readonly signal: AbortSignal,
  ) {
    worker.on('message', (message: Message) => this.deliver(message));
    worker.on('error', (error) => this.fail(error));
    worker.on('exit', (code) =>
      this.fail(new Error(`the simulated past's worker thread exited (code ${code}) before it finished`)),
    );
    signal.addEventListener('abort', this.onAbort, { once: true });
  }

  take(): Promise<Message> {
    if (this.signal.aborted) return Promise.reject(this.signal.reason);
    const next = this.queue.shift();
    if (next) return Promise.resolve(next);
    if (this.failure !== undefined) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => (this.waiting = { resolve, reject }));
  }

  close(): void {
    this.signal.removeEventListener('abort', this.onAbort);
  }

  private deliver(message: Message): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    if (waiting) waiting.resolve(message);
    else this.queue.push(message);
  }

  private fail(error: unknown): void {
    this.failure ??= error;
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.reject(this.failure);
  }
}
