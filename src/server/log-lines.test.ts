import { describe, expect, it } from 'vitest';
import { readableLine, readableLogStream } from './log-lines.js';

describe('the log in a terminal', () => {
  it('reads as time, level, message, then the fields', () => {
    const time = new Date(2026, 10, 26, 11, 4, 19, 123).getTime();
    const line = readableLine(JSON.stringify({ level: 40, time, pid: 7, hostname: 'h', provider: 'pbx', reason: 'closed with code 1006', msg: 'provider event stream down: polling' }));
    expect(line).toBe('11:04:19.123 WARN  provider event stream down: polling  provider=pbx reason="closed with code 1006"');
  });

  it('shows nested fields as JSON, and keeps a line that is no entry as it is', () => {
    expect(readableLine(JSON.stringify({ level: 30, time: 0, msg: 'request completed', res: { statusCode: 200 }, responseTime: 1.5 }))).toMatch(
      /^\d\d:\d\d:\d\d\.\d{3} INFO {2}request completed {2}res=\{"statusCode":200\} responseTime=1\.5$/,
    );
    expect(readableLine('not json')).toBe('not json');
  });

  it('splits what the logger writes into lines', () => {
    const written: string[] = [];
    readableLogStream({ write: (text: string) => written.push(text) > 0 }).write(`${JSON.stringify({ level: 50, time: 0, msg: 'a' })}\n${JSON.stringify({ level: 30, time: 0, msg: 'b' })}\n`);
    expect(written.map((line) => line.slice(13))).toEqual(['ERROR a\n', 'INFO  b\n']);
  });
});
