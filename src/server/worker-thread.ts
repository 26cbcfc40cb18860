/**
 * Worker threads: starting one from a module beside the caller's, whether the service runs built
 * (JavaScript) or from source (TypeScript), and placing it below the event loop's priority.
 */
import { readlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { setPriority } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/** `entry` is the module's name without extension, e.g. './heavy-read-worker', resolved against `callerURL`. */
export const startWorker = (callerURL: string, entry: string, options: WorkerOptions): Worker => {
  if (!callerURL.endsWith('.ts')) return new Worker(new URL(`${entry}.js`, callerURL), options);
  // From source (tests, `npm run dev`): Node 20's workers do not inherit the TypeScript loader, so load the entry through tsx.
  const tsx = createRequire(callerURL).resolve('tsx/cjs/api');
  const file = fileURLToPath(new URL(`${entry}.ts`, callerURL));
  return new Worker(`require(${JSON.stringify(tsx)}).require(${JSON.stringify(file)}, ${JSON.stringify(callerURL)});`, { ...options, eval: true });
};

/**
 * Nice values of the service's worker threads (the event loop's thread keeps 0): when they and the
 * event loop want the same core, the event loop gets it, and everyone's live lists stay quick.
 * Heavy reads, which a user waits for, come before background work such as filling in the past.
 */
export const WORKER_NICE = { heavyReads: 10, background: 15 } as const;

/**
 * Lowers the calling thread's priority, from inside a worker. On Linux each thread has its own
 * nice value, set through its id (found in /proc/thread-self); elsewhere the thread keeps the
 * process's priority.
 */
export const lowerThisThreadPriority = (nice: number): void => {
  try {
    setPriority(Number(readlinkSync('/proc/thread-self').split('/').pop()), nice);
  } catch {
    // No /proc (not Linux), or not allowed: the thread runs at the process's priority.
  }
};
