import { describe, expect, it } from 'vitest';
import { customDaysProblem, parseReportSettings, periodWindow, reportParams } from './report-range.js';

const NOW = Date.parse('2026-11-26T15:42:30Z');

describe('report range', () => {
  it('reads the period and interval from the address, and writes them back alike', () => {
    const settings = parseReportSettings(new URLSearchParams('period=custom&fromDay=2026-11-01&toDay=2026-11-07&interval=15'));
    expect(settings).toEqual({ period: { kind: 'custom', fromDay: '2026-11-01', toDay: '2026-11-07' }, intervalMinutes: 15 });
    expect(reportParams(settings)).toEqual({ period: 'custom', fromDay: '2026-11-01', toDay: '2026-11-07', interval: '15' });
  });

  it('falls back to today in 30-minute intervals on anything it cannot read', () => {
    expect(parseReportSettings(new URLSearchParams('period=custom&fromDay=2026-02-30&toDay=2026-03-01&interval=20'))).toEqual({
      period: { kind: 'preset', preset: 'today' },
      intervalMinutes: 30,
    });
  });

  it('covers whole days from midnight in the displayed zone; today ends at the current minute', () => {
    const iso = (w: { from: number; to: number }) => [new Date(w.from).toISOString(), new Date(w.to).toISOString()];
    expect(iso(periodWindow({ kind: 'preset', preset: 'today' }, NOW, 'Europe/Paris'))).toEqual([
      '2026-11-25T23:00:00.000Z',
      '2026-11-26T15:42:00.000Z',
    ]);
    expect(iso(periodWindow({ kind: 'preset', preset: 'yesterday' }, NOW, 'UTC'))).toEqual([
      '2026-11-25T00:00:00.000Z',
      '2026-11-26T00:00:00.000Z',
    ]);
    expect(iso(periodWindow({ kind: 'preset', preset: '7d' }, NOW, 'UTC'))).toEqual([
      '2026-11-19T00:00:00.000Z',
      '2026-11-26T00:00:00.000Z',
    ]);
    expect(iso(periodWindow({ kind: 'preset', preset: 'month' }, NOW, 'UTC'))).toEqual([
      '2026-11-01T00:00:00.000Z',
      '2026-11-26T15:42:00.000Z',
    ]);
    expect(iso(periodWindow({ kind: 'custom', fromDay: '2026-03-28', toDay: '2026-03-29' }, NOW, 'Europe/Paris'))).toEqual([
      '2026-03-27T23:00:00.000Z',
      '2026-03-29T22:00:00.000Z',
    ]);
  });

  it('refuses custom days in the wrong order or longer than the service reports', () => {
    expect(customDaysProblem('2026-11-07', '2026-11-01')).toBe('The first day must not be after the last.');
    expect(customDaysProblem('2026-10-01', '2026-11-01')).toBe('A report spans at most 31 days.');
    expect(customDaysProblem('2026-10-02', '2026-11-01')).toBeUndefined();
  });
});
