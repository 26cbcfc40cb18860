/**
 * Worker threads: starting one from a module beside the caller's, whether the service runs built
 * (JavaScript) or from source (TypeScript), and placing it below the event loop's priority.
 */
import { existsSync, readlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { getPriority, setPriority } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * A folder holding each worker entry bundled into one file, `<name>.cjs`: the tests' global set-up
 * makes it (test-support/worker-bundles.ts), so the threads of every app they build start fast.
 */
export const WORKER_BUNDLES_ENV = 'CALLBOARD_WORKER_BUNDLES';

const bundledEntry = (entry: string): string | undefined => {
  const dir = process.env[WORKER_BUNDLES_ENV];
  const file = dir && join(dir, `${basename(entry)}.cjs`);
  return file && existsSync(file) ? file : undefined;
};

/**
 * `entry` is the module's name without extension, e.g. './heavy-read-worker', resolved against
 * `callerURL`; its name ends in `-worker` (the tests bundle those).
 */
export const startWorker = (callerURL: string, entry: string, options: WorkerOptions): Worker => {
  if (!callerURL.endsWith('.ts')) return new Worker(new URL(`${entry}.js`, callerURL), options);
  const bundle = bundledEntry(entry);
  if (bundle) return new Worker(bundle, options);
  // From source (tests, `npm run dev`): Node 20's workers do not inherit the TypeScript loader, so load the entry through tsx.
  const tsx = createRequire(callerURL).resolve('tsx/cjs/api');
  const file = fileURLToPath(new URL(`${entry}.ts`, callerURL));
  return new Worker(`require(${JSON.stringify(tsx)}).require(${JSON.stringify(file)}, ${JSON.stringify(callerURL)});`, { ...options, eval: true });
};

/**
 * How far below the event loop's priority the service's worker threads run, in nice steps: when
 * they and the event loop want the same core, the event loop gets it, and everyone's live lists
 * stay quick. Heavy reads, which a user waits for, come before background work such as filling in
 * the past. Relative to the process's own nice value, so a service started under `nice` keeps the
 * order (a fixed value would put its workers above its event loop).
 */
export const WORKER_NICE = { heavyReads: 10, background: 15 } as const;

/** The lowest priority Linux knows. */
const NICEST = 19;

/** The nice value a thread of a process at `processNice` takes when lowered `by` steps. */
export const loweredNice = (processNice: number, by: number): number => Math.min(NICEST, processNice + by);

/**
 * Lowers the calling thread's priority by `by` nice steps, from inside a worker. On Linux each
 * thread has its own nice value, set through its id (found in /proc/thread-self); elsewhere the
 * thread keeps the process's priority.
 */
export const lowerThisThreadPriority = (by: number): void => {
  try {
    const thread = Number(readlinkSync('/proc/thread-self').split('/').pop());
    setPriority(thread, loweredNice(getPriority(thread), by));
  } catch {
    // No /proc (not Linux), or not allowed: the thread runs at the process's priority.
  }
};
