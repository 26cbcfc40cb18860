/**
 * The service's log as a person reads it in a terminal: one line per entry, the time, the level,
 * the message, then the entry's fields as `key=value`. The same entries as the JSON the service
 * writes everywhere else (a file, a pipe, a log collector), which stays the default.
 */
import type { Writable } from 'node:stream';

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO ', 40: 'WARN ', 50: 'ERROR', 60: 'FATAL' };
/** Fields every entry has, shown in the line's head or not at all. */
const HEAD = new Set(['level', 'time', 'msg', 'pid', 'hostname']);

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

const valueText = (value: unknown): string => {
  if (typeof value === 'string') return /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value);
  return JSON.stringify(value) ?? String(value);
};

/** One JSON log entry as a line; text that is not an entry is kept as it is. */
export const readableLine = (json: string): string => {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json.trimEnd();
  }
  const time = typeof entry.time === 'number' ? new Date(entry.time) : undefined;
  const clock = time ? `${pad(time.getHours())}:${pad(time.getMinutes())}:${pad(time.getSeconds())}.${pad(time.getMilliseconds(), 3)}` : '--:--:--.---';
  const level = LEVELS[entry.level as number] ?? String(entry.level ?? '');
  const fields = Object.entries(entry)
    .filter(([key]) => !HEAD.has(key))
    .map(([key, value]) => `${key}=${valueText(value)}`);
  return [clock, level, String(entry.msg ?? ''), ...(fields.length > 0 ? [` ${fields.join(' ')}`] : [])].join(' ').trimEnd();
};

/** A destination for the logger that writes readable lines to `out`. */
export const readableLogStream = (out: Pick<Writable, 'write'>) => ({
  write(chunk: string): void {
    for (const line of chunk.split('\n')) if (line.trim()) out.write(`${readableLine(line)}\n`);
  },
});
