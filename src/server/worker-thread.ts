/** Starts a worker thread from a module beside the caller's, whether the service runs built (JavaScript) or from source (TypeScript). */
import { createRequire } from 'node:module';
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
