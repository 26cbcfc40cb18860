/** A worker thread entry for worker-thread.test.ts: answers each message with the same message. */
import { parentPort } from 'node:worker_threads';

if (!parentPort) throw new Error('echo-worker runs as a worker thread');
const port = parentPort;
port.on('message', (message: unknown) => port.postMessage(message));
