import { describe, expect, it } from 'vitest';
import { ManualClock } from '../clock.js';
import { ChangeLog, formatPosition, parsePosition } from './change-log.js';

const append = (log: ChangeLog, text = 'x') => log.append((position) => `${formatPosition(position)}:${text}`, { upserted: 1, removed: 0 });

describe('change log', () => {
  it('numbers changes and gives back those after a position', () => {
    const log = new ChangeLog(new ManualClock(0));
    const start = log.position;
    append(log);
    append(log);
    expect(log.since(start)?.map((e) => e.seq)).toEqual([1, 2]);
    expect(log.since({ epoch: log.epoch, seq: 1 })?.map((e) => e.data)).toEqual([`${log.epoch}.2:x`]);
    expect(log.since(log.position)).toEqual([]);
    expect(log.serializations).toBe(2);
  });

  it('cannot resume another log’s position, one in the future, or one older than its window', () => {
    const clock = new ManualClock(0);
    const log = new ChangeLog(clock, { maxAgeMs: 60_000, maxEntries: 3, maxBytes: 1_000_000 });
    const other = new ChangeLog(clock);
    expect(log.since(other.position)).toBeUndefined();
    expect(log.since({ epoch: log.epoch, seq: 5 })).toBeUndefined();
    for (let i = 0; i < 5; i += 1) append(log);
    // Three entries kept (3, 4, 5): from 2 the next one is there, from 1 it is gone.
    expect(log.since({ epoch: log.epoch, seq: 2 })?.map((e) => e.seq)).toEqual([3, 4, 5]);
    expect(log.since({ epoch: log.epoch, seq: 1 })).toBeUndefined();
    clock.advance(61_000);
    expect(log.since({ epoch: log.epoch, seq: 4 })).toBeUndefined();
    expect(log.since(log.position)).toEqual([]);
  });

  it('keeps its window under its byte budget', () => {
    const log = new ChangeLog(new ManualClock(0), { maxAgeMs: 60_000, maxEntries: 1000, maxBytes: 100 });
    // Each entry is about 42 bytes: two fit, a third would not.
    for (let i = 0; i < 10; i += 1) append(log, 'y'.repeat(30));
    expect(log.since({ epoch: log.epoch, seq: 8 })?.length).toBe(2);
    expect(log.since({ epoch: log.epoch, seq: 7 })).toBeUndefined();
  });

  it('reads back the positions it writes, and nothing else', () => {
    expect(parsePosition(formatPosition({ epoch: 'abc_-9', seq: 42 }))).toEqual({ epoch: 'abc_-9', seq: 42 });
    for (const bad of ['', 'abc', 'abc.', '.5', 'a b.5', 'abc.5x', `${'a'.repeat(40)}.1`]) expect(parsePosition(bad)).toBeUndefined();
  });
});
