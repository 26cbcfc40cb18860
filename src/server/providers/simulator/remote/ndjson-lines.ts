/** The lines of a newline-delimited JSON body as they arrive, each parsed, failing when none comes for too long. */
import { ProviderFailure } from '../../phone-system.js';

/** A batch of the past is about 0.5 MB; a line many times that is no line of the wire. */
const MAX_LINE_CHARS = 32 * 1024 * 1024;

export interface LineOptions {
  /** Longest wait for the next part of the body. */
  idleMs: number;
  /** The error to fail with once `idleMs` passed without a byte. */
  onIdle: () => Error;
}

export async function* ndjsonLines(body: ReadableStream<Uint8Array>, { idleMs, onIdle }: LineOptions): AsyncGenerator<unknown> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  try {
    for (;;) {
      const { done, value } = await readWithin(reader, idleMs, onIdle);
      buffered += done ? decoder.decode() : decoder.decode(value, { stream: true });
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) if (line.trim() !== '') yield parseLine(line);
      if (buffered.length > MAX_LINE_CHARS) throw new ProviderFailure('error', `the simulator sent a line of over ${MAX_LINE_CHARS} characters`);
      if (done) break;
    }
    if (buffered.trim() !== '') throw new ProviderFailure('error', 'the simulator ended its answer in the middle of a line');
  } finally {
    // Leaving early (the consumer stopped, or failed) drops the rest of the body and its connection.
    await reader.cancel().catch(() => undefined);
  }
}

const readWithin = async (reader: ReadableStreamDefaultReader<Uint8Array>, idleMs: number, onIdle: () => Error) => {
  let timer: NodeJS.Timeout | undefined;
  const idle = new Promise<never>((_resolve, reject) => (timer = setTimeout(() => reject(onIdle()), idleMs)));
  try {
    return await Promise.race([reader.read(), idle]);
  } finally {
    clearTimeout(timer);
  }
};

const parseLine = (line: string): unknown => {
  try {
    return JSON.parse(line);
  } catch {
    throw new ProviderFailure('error', `the simulator sent a line that is not JSON: ${line.slice(0, 80)}`);
  }
};
