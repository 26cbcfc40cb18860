/** Worker thread entry: runs one simulated past and posts a batch for every pull message its parent sends. */
import { parentPort, workerData } from 'node:worker_threads';
import { simulatePast, type PastRun } from './simulated-past.js';

if (!parentPort) throw new Error('past-worker runs as a worker thread (see past-worker-thread.ts)');
const port = parentPort;
const batches = simulatePast(workerData as PastRun);

port.on('message', () => {
  const next = batches.next();
  port.postMessage(next.done ? { done: true } : { batch: next.value });
  if (next.done) port.close();
});
