/**
 * Export thread entry: one export, on a connection of its own. It reads the range through the
 * cursor, writes the file's chunks and posts each one only when the reply asks for more, so a slow
 * client holds the read back instead of filling memory; told to stop, it closes the cursor and the
 * connection and ends.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { lowerThisThreadPriority, WORKER_NICE } from '../worker-thread.js';
import type { ExportStatement } from './call-export.js';
import { exportChunks, type ExportFile } from './call-export-format.js';
import { openExportConnection, type ExportConnection } from './export-cursor.js';
import type { HistoryLocation } from './open-history-database.js';

/** The file to write; the statement is compiled by the caller, for the location's dialect. */
export interface ExportJob {
  location: HistoryLocation;
  statement: ExportStatement;
  file: ExportFile;
}

/** 'more': the reply wants another chunk; 'stop': the client went away. */
export type ExportCommand = 'more' | 'stop';

export type ExportMessage =
  { kind: 'chunk'; text: string } | { kind: 'end' } | { kind: 'failed'; message: string };

/** Chunks posted before the reply first asks: the next one is ready when it does. */
const HEAD_START = 1;

if (!parentPort) throw new Error('call-export-worker runs as a worker thread (see call-exports.ts)');
lowerThisThreadPriority(WORKER_NICE.background);
const port = parentPort;
const job = workerData as ExportJob;

/** Chunks the reply has asked for; a take waits for one, and answers false once the export is stopped. */
let credit = HEAD_START;
let stopped = false;
let waiting: ((go: boolean) => void) | undefined;

const take = (): Promise<boolean> => {
  if (stopped) return Promise.resolve(false);
  if (credit > 0) {
    credit -= 1;
    return Promise.resolve(true);
  }
  return new Promise((resolve) => {
    waiting = resolve;
  });
};

port.on('message', (command: ExportCommand) => {
  const wake = waiting;
  waiting = undefined;
  if (command === 'stop') {
    stopped = true;
    wake?.(false);
  } else if (wake) wake(true);
  else credit += 1;
});

/** Answers whether the file was written to its end (not stopped). */
const run = async (connection: ExportConnection): Promise<boolean> => {
  for await (const chunk of exportChunks(connection.batches(job.statement), job.file)) {
    if (!(await take())) return false;
    port.postMessage({ kind: 'chunk', text: chunk } satisfies ExportMessage);
  }
  return true;
};

const main = async (): Promise<void> => {
  let connection: ExportConnection | undefined;
  let written = false;
  try {
    connection = await openExportConnection(job.location);
    written = await run(connection);
  } catch (error) {
    if (!stopped) port.postMessage({ kind: 'failed', message: (error as Error).message } satisfies ExportMessage);
  } finally {
    await connection?.close().catch(() => undefined);
  }
  // Last, once the connection is closed: a file's end means its connection is free.
  if (written) port.postMessage({ kind: 'end' } satisfies ExportMessage);
  port.close();
};

void main();
