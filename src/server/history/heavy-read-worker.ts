/** Reader thread entry: opens the history database for reading and answers heavy reads, one at a time. */
import { parentPort, workerData } from 'node:worker_threads';
import { lowerThisThreadPriority, WORKER_NICE } from '../worker-thread.js';
import { runHeavyRead, type HeavyReadArgs, type HeavyReadName } from './heavy-reads.js';
import { openHistoryReader, type HistoryLocation } from './open-history-database.js';

export interface ReadRequest {
  id: number;
  name: HeavyReadName;
  args: HeavyReadArgs[HeavyReadName];
}

/** A read to answer, or 'close': close the connection and end the thread. */
export type ReaderMessage = ReadRequest | 'close';

export type ReadAnswer = { id: number; ok: true; value: unknown } | { id: number; ok: false; message: string };

if (!parentPort) throw new Error('heavy-read-worker runs as a worker thread (see heavy-read-pool.ts)');
lowerThisThreadPriority(WORKER_NICE.heavyReads);
const port = parentPort;
const db = openHistoryReader(workerData as HistoryLocation);

const answer = async ({ id, name, args }: ReadRequest): Promise<void> => {
  try {
    const value = await runHeavyRead(db, name, args);
    if (name === 'windowList' && typeof value === 'object' && 'body' in value) {
      // A list of 10,000 calls is megabytes: its bytes are handed over, not copied, unless they
      // share their memory with other buffers (a small one in Node's pool).
      const { body } = value;
      const own = body.buffer instanceof ArrayBuffer && body.byteOffset === 0 && body.byteLength === body.buffer.byteLength;
      const bytes = own ? (body.buffer as ArrayBuffer) : new Uint8Array(body).buffer;
      port.postMessage({ id, ok: true, value: { ...value, body: new Uint8Array(bytes) } } satisfies ReadAnswer, [bytes]);
      return;
    }
    if (value instanceof Uint8Array && value.byteOffset === 0 && value.buffer instanceof ArrayBuffer && value.byteLength === value.buffer.byteLength) {
      // An answer made as its bytes (the interval report) is handed over the same way.
      port.postMessage({ id, ok: true, value: new Uint8Array(value.buffer) } satisfies ReadAnswer, [value.buffer]);
      return;
    }
    port.postMessage({ id, ok: true, value } satisfies ReadAnswer);
  } catch (error) {
    port.postMessage({ id, ok: false, message: (error as Error).message } satisfies ReadAnswer);
  }
};

port.on('message', (message: ReaderMessage) => {
  if (message !== 'close') return void answer(message);
  void db.destroy().finally(() => port.close());
});
