/** Worker thread entry: runs one simulated past and posts a batch for every pull message its parent sends. */
import { parentPort, workerData } from 'node:worker_threads';
import { lowerThisThreadPriority, WORKER_NICE } from '../../worker-thread.js';
import { simulatePast, type PastRun } from './simulated-past.js';

if (!parentPort) throw new Error('past-worker runs as a worker thread (see past-worker-thread.ts)');
// Filling in the past is background work: it yields to live requests and to heavy reads.
lowerThisThreadPriority(WORKER_NICE.background);
const port = parentPort;
const batches = simulatePast(workerData as PastRun);

port.on('message', () => {
  const next = batches.next();
  port.postMessage(next.done ? { done: true } : { batch: next.value });
  if (next.done) port.close();
});
