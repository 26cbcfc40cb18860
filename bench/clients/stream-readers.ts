/**
 * Benchmark child process: many change-stream readers on 127.0.0.1, reading as the dashboard does
 * (gzip, one connection each). Every reader splits the stream into events and reads each change's
 * position; one reader in `fullParseEvery` also JSON-parses every event, as a tab would. Arrivals
 * are stamped when the event is parsed, and matched later with when the service accepted each change.
 * A reader opens fresh (a snapshot first) or resumes from the latest event ID seen here, as a tab
 * that reconnects does (only the changes since).
 */
import { get, type IncomingMessage } from 'node:http';
import { constants, createGunzip } from 'node:zlib';
import { answerQuestions, type Question } from '../support/child.js';

const NEWLINE = 10;
const CURSOR = /"cursor":"[A-Za-z0-9_-]+\.(\d+)"/;

/** Splits a byte stream into Server-Sent Events frames (ended by a blank line) without copying more than each frame once. */
class FrameSplitter {
  private held: Buffer[] = [];
  private lastByte = 0;

  push(chunk: Buffer, onFrame: (frame: Buffer) => void): void {
    let start = 0;
    for (;;) {
      let end: number;
      if (start === 0 && this.held.length > 0 && this.lastByte === NEWLINE && chunk[0] === NEWLINE) end = 0;
      else {
        const blank = chunk.indexOf('\n\n', start);
        if (blank < 0) break;
        end = blank + 1;
      }
      const frame =
        this.held.length === 0 ? chunk.subarray(start, end + 1) : Buffer.concat([...this.held, chunk.subarray(start, end + 1)]);
      this.held = [];
      onFrame(frame);
      start = end + 1;
    }
    if (start < chunk.length) {
      this.held.push(chunk.subarray(start));
      this.lastByte = chunk[chunk.length - 1] ?? 0;
    }
  }
}

interface Reader {
  /** Whether the first event arrived: a snapshot, or for a resumed stream the changes since its cursor. */
  started: boolean;
  closed: boolean;
  seqs: number[];
  times: number[];
  /** Bytes read from the socket (headers, chunk framing and all) when recording started, and the socket's count. */
  bytesAtRecord: number;
  bytesRead: () => number;
  close: () => void;
}

const readers: Reader[] = [];
/** Readers opened here so far, counting those that failed. */
let ordinal = 0;
/** The newest event ID any reader here received: where a resuming reader starts. */
let latestEventID = '';
let recording = false;
let recordingSince = { cpu: process.cpuUsage(), at: Date.now() };
/** Events a fully parsing reader parsed, and the records in them: proof the data is whole. */
const parsed = { events: 0, records: 0 };

const fieldOf = (frame: Buffer, name: string): string | undefined => {
  const at = frame.indexOf(`${name}: `);
  if (at < 0) return undefined;
  const end = frame.indexOf(NEWLINE, at);
  return frame.toString('latin1', at + name.length + 2, Math.min(end < 0 ? frame.length : end, at + name.length + 2 + 64));
};

const onFrame = (reader: Reader, fullParse: boolean, onStarted: () => void) => (frame: Buffer) => {
  const event = fieldOf(frame, 'event');
  if (event === undefined) return;
  latestEventID = fieldOf(frame, 'id') ?? latestEventID;
  const dataAt = frame.indexOf('\ndata: ') + 7;
  if (fullParse) {
    const data = JSON.parse(frame.toString('utf8', dataAt, frame.length - 2)) as { calls?: unknown[]; upserted?: unknown[] };
    parsed.events += 1;
    parsed.records += data.calls?.length ?? data.upserted?.length ?? 0;
  }
  if (!reader.started) {
    reader.started = true;
    onStarted();
  }
  if (event !== 'changes' || !recording) return;
  const seq = CURSOR.exec(frame.toString('latin1', dataAt, dataAt + 160))?.[1];
  if (seq === undefined) return;
  reader.seqs.push(Number(seq));
  reader.times.push(Date.now());
};

interface ReaderOptions {
  gzip: boolean;
  fullParse: boolean;
  resume: boolean;
}

/** Opens one stream; resolves when its first event has arrived, rejects when it cannot be had. */
const openReader = (url: string, token: string, { gzip, fullParse, resume }: ReaderOptions): Promise<Reader> =>
  new Promise((resolve, reject) => {
    const reader: Reader = {
      started: false,
      closed: false,
      seqs: [],
      times: [],
      bytesAtRecord: 0,
      bytesRead: () => 0,
      close: () => undefined,
    };
    const headers = {
      authorization: `Bearer ${token}`,
      'accept-encoding': gzip ? 'gzip' : 'identity',
      ...(resume && latestEventID ? { 'last-event-id': latestEventID } : {}),
    };
    const request = get(url, { agent: false, headers }, (response: IncomingMessage) => {
      if (response.statusCode !== 200) {
        response.resume();
        return reject(new Error(`the stream answered ${response.statusCode}`));
      }
      const splitter = new FrameSplitter();
      const handle = onFrame(reader, fullParse, () => resolve(reader));
      const socket = response.socket;
      reader.bytesRead = () => socket.bytesRead;
      const body =
        response.headers['content-encoding'] === 'gzip'
          ? response.pipe(createGunzip({ flush: constants.Z_SYNC_FLUSH }))
          : response;
      body.on('data', (chunk: Buffer) => splitter.push(chunk, handle));
      const closed = () => {
        reader.closed = true;
        reject(new Error('the stream ended before its first event'));
      };
      response.on('close', closed);
      body.on('error', closed);
    });
    request.on('error', reject);
    reader.close = () => request.destroy();
  });

/** Opens `count` streams, `parallel` at a time: how long until every one had its first event. */
const open = async (question: Question) => {
  const { url, token, count, parallel, fullParseEvery, gzip, resume } = question as unknown as {
    url: string;
    token: string;
    count: number;
    parallel: number;
    fullParseEvery: number;
    gzip: boolean;
    resume: boolean;
  };
  const started = Date.now();
  const times: number[] = [];
  let failed = 0;
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = ordinal;
      next += 1;
      ordinal += 1;
      const begun = Date.now();
      try {
        readers.push(await openReader(url, token, { gzip, resume, fullParse: index % fullParseEvery === 0 }));
        times.push(Date.now() - begun);
      } catch {
        failed += 1;
      }
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  times.sort((a, b) => a - b);
  return {
    opened: times.length,
    failed,
    ms: Date.now() - started,
    firstEventP50Ms: times[Math.floor(times.length / 2)] ?? NaN,
    firstEventMaxMs: times.at(-1) ?? NaN,
  };
};

const record = () => {
  for (const reader of readers) {
    reader.seqs = [];
    reader.times = [];
    reader.bytesAtRecord = reader.bytesRead();
  }
  parsed.events = 0;
  parsed.records = 0;
  recording = true;
  recordingSince = { cpu: process.cpuUsage(), at: Date.now() };
  return readers.length;
};

/**
 * Delivery latency of each change to each reader, from when the service accepted it: a histogram
 * in whole milliseconds, the slowest reader per change, and the deliveries that never came.
 */
const collect = (question: Question) => {
  recording = false;
  const cpu = process.cpuUsage(recordingSince.cpu);
  const accepted = new Map(question.acceptedAt as [number, number][]);
  const histogram = new Map<number, number>();
  const slowest = new Map<number, number>();
  let missing = 0;
  let deliveries = 0;
  let wireBytes = 0;
  for (const reader of readers) {
    wireBytes += reader.bytesRead() - reader.bytesAtRecord;
    const seen = new Set<number>();
    reader.seqs.forEach((seq, index) => {
      const at = accepted.get(seq);
      if (at === undefined) return;
      const ms = Math.max(0, (reader.times[index] as number) - at);
      seen.add(seq);
      deliveries += 1;
      histogram.set(ms, (histogram.get(ms) ?? 0) + 1);
      slowest.set(seq, Math.max(slowest.get(seq) ?? 0, ms));
    });
    for (const seq of accepted.keys()) if (!seen.has(seq)) missing += 1;
  }
  return {
    histogram: [...histogram],
    slowest: [...slowest],
    deliveries,
    missing,
    dropped: readers.filter((reader) => reader.closed).length,
    wireBytes,
    cpuMs: (cpu.user + cpu.system) / 1000,
    windowMs: Date.now() - recordingSince.at,
    parsed: { ...parsed },
  };
};

const close = () => {
  for (const reader of readers) reader.close();
  readers.length = 0;
  return true;
};

answerQuestions({ open, record, collect, close });
process.stdout.write('ready 0\n');
process.on('SIGTERM', () => process.exit(0));
