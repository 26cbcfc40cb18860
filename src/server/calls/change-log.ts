/**
 * A provider's recent changes, numbered: each sync that changed anything is one entry with the
 * next sequence number, serialized once for every stream that sends it. A bounded window is
 * kept (by age, count and bytes); a position older than the window, or from another log's past,
 * cannot be resumed and gets a fresh snapshot instead.
 */
import { randomBytes } from 'node:crypto';
import type { Clock } from '../clock.js';

export interface ChangeEntry {
  seq: number;
  /** Clock time of the sync that saw the change. */
  at: number;
  /** The `changes` event's data, as sent on the wire. */
  data: string;
  upserted: number;
  removed: number;
}

export interface ChangeLogLimits {
  maxAgeMs: number;
  maxEntries: number;
  maxBytes: number;
}

export const DEFAULT_CHANGE_LOG_LIMITS: ChangeLogLimits = { maxAgeMs: 10 * 60_000, maxEntries: 20_000, maxBytes: 32 * 1024 * 1024 };

/** A position in a log: its epoch (which log) and sequence number, as one opaque token. */
export interface LogPosition {
  epoch: string;
  seq: number;
}

export const formatPosition = ({ epoch, seq }: LogPosition): string => `${epoch}.${seq}`;

export const parsePosition = (text: string): LogPosition | undefined => {
  const match = /^([A-Za-z0-9_-]{1,32})\.(\d{1,15})$/.exec(text);
  return match ? { epoch: match[1] as string, seq: Number(match[2]) } : undefined;
};

export class ChangeLog {
  /** Tells this log's positions from another's (another process, an earlier run of this one). */
  private currentEpoch = randomBytes(6).toString('base64url');
  private entries: ChangeEntry[] = [];
  private bytes = 0;
  private current = 0;
  /** Entries serialized: once per change, whatever the number of readers. */
  serializations = 0;

  constructor(
    private readonly clock: Clock,
    private readonly limits: ChangeLogLimits = DEFAULT_CHANGE_LOG_LIMITS,
  ) {}

  get epoch(): string {
    return this.currentEpoch;
  }

  get position(): LogPosition {
    return { epoch: this.epoch, seq: this.current };
  }

  /**
   * The next change, numbered and serialized but not yet appended: `serialize` gets its position
   * and returns the event's data. A leader commits it before it adopts it.
   */
  numbered(serialize: (position: LogPosition) => string, counts: { upserted: number; removed: number }): ChangeEntry {
    const position = { epoch: this.epoch, seq: this.current + 1 };
    const data = serialize(position);
    this.serializations += 1;
    return { seq: position.seq, at: this.clock.now(), data, ...counts };
  }

  /** Appends the next change; `serialize` gets its position and returns the event's data. */
  append(serialize: (position: LogPosition) => string, counts: { upserted: number; removed: number }): ChangeEntry {
    const entry = this.numbered(serialize, counts);
    this.adopt(entry);
    return entry;
  }

  /**
   * Takes the next entry (numbered here, or elsewhere by a cluster's leader), which must follow
   * the last one; an entry out of order throws, and the caller starts over from a snapshot.
   */
  adopt(entry: ChangeEntry): void {
    if (entry.seq !== this.current + 1) throw new Error(`change ${entry.seq} does not follow ${this.current}`);
    this.current = entry.seq;
    this.entries.push(entry);
    this.bytes += Buffer.byteLength(entry.data);
    this.trim();
  }

  /** Forgets every entry and stands at `seq` of `epoch`: positions from before cannot be resumed. */
  restart(epoch: string, seq: number): void {
    this.currentEpoch = epoch;
    this.current = seq;
    this.entries = [];
    this.bytes = 0;
  }

  /**
   * The entries after `from`, in order; undefined when that position cannot be resumed here
   * (another log's, in the future, or older than the window).
   */
  since(from: LogPosition): ChangeEntry[] | undefined {
    if (from.epoch !== this.epoch || from.seq > this.current) return undefined;
    if (from.seq === this.current) return [];
    this.trim();
    const first = this.entries[0];
    if (!first || from.seq < first.seq - 1) return undefined;
    return this.entries.slice(from.seq - first.seq + 1);
  }

  private trim(): void {
    const oldest = this.clock.now() - this.limits.maxAgeMs;
    let drop = 0;
    while (
      drop < this.entries.length &&
      (this.entries.length - drop > this.limits.maxEntries || this.bytes > this.limits.maxBytes || (this.entries[drop] as ChangeEntry).at < oldest)
    ) {
      this.bytes -= Buffer.byteLength((this.entries[drop] as ChangeEntry).data);
      drop += 1;
    }
    if (drop > 0) this.entries = this.entries.slice(drop);
  }
}
