import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CallRecord } from '../../contract/call-record.js';
import {
  liveSample,
  parseStoredSamples,
  peakToday,
  pruneSamples,
  readSamples,
  recordSample,
  SAMPLE_RETENTION_MS,
  samplesKeyForScopes,
  type ConcurrencySample,
} from './concurrency-samples.js';

const NOW = Date.parse('2026-11-22T14:30:00.000Z');
const MIN = 60_000;
const sample = (at: number, inbound: number, outbound = 0): ConcurrencySample => ({ at, inbound, outbound });
let keys = 0;
/** The store caches per key in memory: each test takes its own series. */
const freshKey = () => `test/app/p${++keys}`;

const call = (over: Partial<CallRecord>): CallRecord => ({
  callID: 'c',
  providerCallID: 'pc',
  providerID: 'p',
  providerName: 'P',
  isOutbound: false,
  isMissedCall: false,
  remoteNumber: '15555550100',
  startedAt: new Date(NOW - MIN).toISOString(),
  ...over,
});

afterEach(() => vi.restoreAllMocks());

describe('liveSample', () => {
  it('counts live calls by direction and leaves ended ones out', () => {
    const calls = [
      call({ callID: 'a' }),
      call({ callID: 'b', isOutbound: true }),
      call({ callID: 'c', isOutbound: true, answeredAt: new Date(NOW).toISOString() }),
      call({ callID: 'd', endedAt: new Date(NOW).toISOString() }),
      call({ callID: 'e', isMissedCall: true, endedAt: new Date(NOW).toISOString() }),
    ];
    expect(liveSample(calls, NOW)).toEqual({ at: NOW, inbound: 1, outbound: 2 });
  });
});

describe('recordSample', () => {
  it('adds one sample per poll time and ignores a repeat or an older one', () => {
    const key = freshKey();
    expect(recordSample(key, sample(NOW - 4000, 3), NOW)).toBe(true);
    expect(recordSample(key, sample(NOW - 2000, 5), NOW)).toBe(true);
    expect(recordSample(key, sample(NOW - 2000, 9), NOW)).toBe(false);
    expect(recordSample(key, sample(NOW - 3000, 9), NOW)).toBe(false);
    expect(readSamples(key, NOW).map((s) => s.inbound)).toEqual([3, 5]);
  });

  it('survives a page reload through localStorage', async () => {
    const key = freshKey();
    recordSample(key, sample(NOW - 2000, 3, 1), NOW);
    recordSample(key, sample(NOW, 4, 2), NOW);
    vi.resetModules();
    const reloaded = await import('./concurrency-samples.js');
    expect(reloaded.readSamples(key, NOW)).toEqual([sample(NOW - 2000, 3, 1), sample(NOW, 4, 2)]);
  });

  it('keeps the samples in memory when storage refuses to write', () => {
    const key = freshKey();
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('full', 'QuotaExceededError');
    });
    expect(recordSample(key, sample(NOW, 7), NOW)).toBe(true);
    expect(readSamples(key, NOW)).toEqual([sample(NOW, 7)]);
  });
});

describe('pruneSamples', () => {
  it('drops samples older than 24 h and from the future', () => {
    const kept = pruneSamples([sample(NOW - SAMPLE_RETENTION_MS - 1, 1), sample(NOW - SAMPLE_RETENTION_MS + 1000, 2), sample(NOW, 3), sample(NOW + 10 * MIN, 4)], NOW);
    expect(kept.map((s) => s.inbound)).toEqual([2, 3]);
  });

  it('thins samples older than the chart ranges to the busiest of each minute, and keeps recent ones whole', () => {
    const twoHoursAgo = Math.floor((NOW - 120 * MIN) / MIN) * MIN;
    const old = [sample(twoHoursAgo, 2), sample(twoHoursAgo + 2000, 9), sample(twoHoursAgo + 4000, 1), sample(twoHoursAgo + MIN, 4)];
    const recent = [sample(NOW - 4000, 1), sample(NOW - 2000, 2), sample(NOW, 3)];
    expect(pruneSamples([...old, ...recent], NOW)).toEqual([sample(twoHoursAgo + 2000, 9), sample(twoHoursAgo + MIN, 4), ...recent]);
  });

  it('caps a day of polls every 2 s well below a storage quota', () => {
    const day = Array.from({ length: SAMPLE_RETENTION_MS / 2000 }, (_, i) => sample(NOW - SAMPLE_RETENTION_MS + (i + 1) * 2000, i % 50));
    const kept = pruneSamples(day, NOW);
    expect(kept.length).toBeLessThan(24 * 60 + 65 * 30 + 1);
    expect(Math.max(...kept.map((s) => s.inbound))).toBe(49);
  });
});

describe('parseStoredSamples', () => {
  it.each([
    ['not JSON', '{oops'],
    ['a number', '42'],
    ['null', 'null'],
    ['samples that are not a list', '{"version":1,"samples":"x"}'],
  ])('reads %s as no samples', (_, text) => {
    expect(parseStoredSamples(text, NOW)).toEqual([]);
  });

  it('keeps the valid rows of a damaged list, in time order', () => {
    const text = JSON.stringify({ version: 1, samples: [[NOW, 2, 1], 'x', [NOW - 2000, -1, 0], [NOW - 4000, 1.5, 0], [NOW - 6000, 3, 0], [null, 1, 1], [NOW - 8000, 1]] });
    expect(parseStoredSamples(text, NOW)).toEqual([sample(NOW - 6000, 3), sample(NOW, 2, 1)]);
  });

  it('lets the page go on recording over a corrupt entry', () => {
    const key = freshKey();
    localStorage.setItem(`callboard.concurrency.${key}`, '{"samples":[[1,');
    expect(readSamples(key, NOW)).toEqual([]);
    expect(recordSample(key, sample(NOW, 5), NOW)).toBe(true);
    expect(parseStoredSamples(localStorage.getItem(`callboard.concurrency.${key}`), NOW)).toEqual([sample(NOW, 5)]);
  });
});

describe('peakToday', () => {
  const midnight = Date.parse('2026-11-22T00:00:00.000Z');

  it('takes the busiest sample of today only, and says since when it counts', () => {
    const samples = [sample(midnight - 10 * MIN, 40), sample(midnight + 8 * 60 * MIN + 3 * MIN, 5, 2), sample(midnight + 14 * 60 * MIN + 5 * MIN, 15, 8), sample(NOW, 3)];
    expect(peakToday(samples, 3, NOW, 'UTC')).toEqual({ total: 23, at: midnight + 14 * 60 * MIN + 5 * MIN, since: midnight + 8 * 60 * MIN + 3 * MIN });
  });

  it('claims the whole day when the samples begin at midnight', () => {
    const samples = [sample(midnight + 30_000, 1), sample(NOW - MIN, 9)];
    expect(peakToday(samples, 2, NOW, 'UTC').since).toBeUndefined();
  });

  it('is never below the calls live right now', () => {
    expect(peakToday([sample(NOW - MIN, 4)], 6, NOW, 'UTC')).toMatchObject({ total: 6, at: NOW });
  });

  it('reads "today" in the display time zone', () => {
    // 14:30 UTC is 09:30 in New York, whose day began at 05:00 UTC: the 03:00 UTC sample was yesterday there.
    const samples = [sample(Date.parse('2026-11-22T03:00:00.000Z'), 30), sample(Date.parse('2026-11-22T06:00:00.000Z'), 7)];
    expect(peakToday(samples, 0, NOW, 'America/New_York').total).toBe(7);
    expect(peakToday(samples, 0, NOW, 'UTC').total).toBe(30);
  });
});

describe('samplesKeyForScopes', () => {
  const scope = (providerID: string) => ({ accountID: 'demo', applicationID: 'support', providerID });
  it('names one provider, or "all" for several, as the pages do', () => {
    expect(samplesKeyForScopes([scope('pbx-main')])).toBe('demo/support/pbx-main');
    expect(samplesKeyForScopes([scope('pbx-main'), scope('sip-trunk')])).toBe('demo/support/all');
    expect(samplesKeyForScopes([])).toBe('');
  });
});
