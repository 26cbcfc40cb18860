import { describe, expect, it } from 'vitest';
import type { ConcurrencyBucket } from '../../../../contract/analytics.js';
import { customWindowProblem, parseAnalyticsRange, rangeParams, rangeWindow } from './analytics-range.js';
import { bucketsToCsv } from './analytics-csv.js';
import { busiestHours } from './busiest-hours.js';

const NOW = Date.parse('2026-11-22T09:00:42.500Z');

describe('analytics range', () => {
  it('reads presets and custom windows from the URL, and falls back to 24 h', () => {
    expect(parseAnalyticsRange(new URLSearchParams('range=7d'))).toEqual({ kind: 'preset', preset: '7d' });
    expect(parseAnalyticsRange(new URLSearchParams('range=5y'))).toEqual({ kind: 'preset', preset: '24h' });
    const custom = parseAnalyticsRange(new URLSearchParams('range=custom&from=2026-11-20T00:00:00Z&to=2026-11-21T00:00:00Z'));
    expect(custom).toEqual({ kind: 'custom', from: Date.parse('2026-11-20T00:00:00Z'), to: Date.parse('2026-11-21T00:00:00Z') });
    expect(rangeParams(custom)).toEqual({ range: 'custom', from: '2026-11-20T00:00:00.000Z', to: '2026-11-21T00:00:00.000Z' });
    expect(parseAnalyticsRange(new URLSearchParams('range=custom&from=2026-11-21T00:00:00Z&to=2026-11-20T00:00:00Z')).kind).toBe('preset');
  });

  it('ends a preset at the current minute, so one query serves the minute', () => {
    expect(rangeWindow({ kind: 'preset', preset: '1h' }, NOW, 'UTC')).toEqual({ from: Date.parse('2026-11-22T08:00:00Z'), to: Date.parse('2026-11-22T09:00:00Z'), bucketSeconds: 60 });
  });

  it('starts a preset on a bucket boundary of the displayed zone, so buckets begin on round times', () => {
    const later = Date.parse('2026-11-22T09:17:42Z');
    expect(rangeWindow({ kind: 'preset', preset: '7d' }, later, 'UTC')).toEqual({ from: Date.parse('2026-11-15T09:00:00Z'), to: Date.parse('2026-11-22T09:17:00Z'), bucketSeconds: 1800 });
    expect(rangeWindow({ kind: 'preset', preset: '24h' }, later, 'UTC')).toMatchObject({ from: Date.parse('2026-11-21T09:15:00Z'), bucketSeconds: 300 });
    // Kathmandu is 5:45 ahead: its half hours fall on :15 and :45 of UTC.
    expect(rangeWindow({ kind: 'preset', preset: '7d' }, later, 'Asia/Kathmandu').from).toBe(Date.parse('2026-11-15T09:15:00Z'));
  });

  it('leaves a custom window as entered, and its buckets to the service', () => {
    const custom = { kind: 'custom', from: Date.parse('2026-11-20T10:07:00Z'), to: Date.parse('2026-11-20T12:00:00Z') } as const;
    expect(rangeWindow(custom, NOW, 'UTC')).toEqual({ from: custom.from, to: custom.to });
  });

  it('says what is wrong with a custom window', () => {
    expect(customWindowProblem(undefined, NOW)).toMatch(/both/);
    expect(customWindowProblem(NOW, NOW)).toMatch(/before/);
    expect(customWindowProblem(NOW - 40 * 86_400_000, NOW)).toMatch(/31 days/);
    expect(customWindowProblem(NOW - 1000, NOW)).toBeUndefined();
  });
});

const bucket = (start: string, started: number, extra: Partial<ConcurrencyBucket> = {}): ConcurrencyBucket => ({
  start,
  peak: 0,
  average: 0,
  peakInbound: 0,
  peakOutbound: 0,
  started,
  missed: 0,
  ...extra,
});

describe('busiest hours', () => {
  it('adds calls started into weekday and hour cells of the displayed zone', () => {
    const grid = busiestHours([bucket('2026-11-23T09:00:00.000Z', 5), bucket('2026-11-30T09:00:00.000Z', 2), bucket('2026-11-22T23:00:00.000Z', 1)], 'Europe/Paris');
    expect(grid.cells[0]?.[10]).toBe(7);
    expect(grid.cells[0]?.[0]).toBe(1);
    expect(grid.max).toBe(7);
  });
});

describe('analytics CSV', () => {
  it('writes each bucket with its UTC start, its start in the zone, and every figure', () => {
    const text = bucketsToCsv([bucket('2026-11-22T08:00:00.000Z', 3, { peak: 2, average: 1.25, missed: 1 })], 'Europe/Paris');
    expect(text.split('\r\n')).toEqual([
      'start,start (Europe/Paris),peak,average,peakInbound,peakOutbound,started,missed',
      '2026-11-22T08:00:00.000Z,2026-11-22 09:00,2,1.25,0,0,3,1',
      '',
    ]);
  });
});
