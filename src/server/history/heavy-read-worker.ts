/** Reader thread entry: opens the history database for reading and answers heavy reads, one at a time. */
import { parentPort, workerData } from 'node:worker_threads';
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
const port = parentPort;
const db = openHistoryReader(workerData as HistoryLocation);

const answer = async ({ id, name, args }: ReadRequest): Promise<void> => {
  try {
    const value = await runHeavyRead(db, name, args);
    if (name === 'windowList' && 'body' in value) {
      // A list of 10,000 calls is megabytes: copied once here, into a buffer of its own, then
      // handed over to the event loop's thread without a second copy.
      const body = new Uint8Array(value.body);
      port.postMessage({ id, ok: true, value: { ...value, body } } satisfies ReadAnswer, [body.buffer]);
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
