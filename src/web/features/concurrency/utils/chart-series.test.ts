import { describe, expect, it } from 'vitest';
import { sampleTotal, type ConcurrencySample } from '../../../lib/concurrency-samples.js';
import {
  axisTop,
  busiestPerMinute,
  chartPoints,
  concurrencyView,
  describeConcurrency,
  downsample,
  GAP_MS,
  MAX_CHART_POINTS,
  parseRange,
} from './chart-series.js';

const TO = Date.parse('2026-11-22T14:30:00.000Z');
const HOUR = 60 * 60_000;
const FROM = TO - HOUR;
const sample = (at: number, inbound: number, outbound = 0): ConcurrencySample => ({ at, inbound, outbound });

/** An hour of polls every second: 3,600 samples with one short spike. */
const hourOfPolls = (spikeAt: number) =>
  Array.from({ length: 3600 }, (_, i) => {
    const at = FROM + (i + 1) * 1000;
    return at === spikeAt ? sample(at, 40, 17) : sample(at, 5 + (i % 7), i % 3);
  });

describe('downsample', () => {
  it('draws at most 500 points however many samples the range holds', () => {
    const points = downsample(hourOfPolls(FROM + 1_234_000), FROM, TO);
    expect(points.length).toBeLessThanOrEqual(MAX_CHART_POINTS);
    expect(points.length).toBeGreaterThan(MAX_CHART_POINTS - 5);
  });

  it('keeps the busiest sample of each bucket, so a one-poll spike survives', () => {
    const spikeAt = FROM + 1_234_000;
    const points = downsample(hourOfPolls(spikeAt), FROM, TO);
    expect(points).toContainEqual(sample(spikeAt, 40, 17));
    expect(Math.max(...points.map(sampleTotal))).toBe(57);
  });

  it('returns a short range as it is, and leaves out samples outside it', () => {
    const samples = [sample(FROM - 1000, 9), sample(FROM + 1000, 1), sample(TO, 2), sample(TO + 1000, 9)];
    expect(downsample(samples, FROM, TO)).toEqual([sample(FROM + 1000, 1), sample(TO, 2)]);
  });
});

describe('chartPoints', () => {
  it('breaks the areas where no poll answered for a while', () => {
    const before = sample(FROM + 60_000, 3, 1);
    const after = sample(before.at + GAP_MS + 1, 4, 2);
    expect(chartPoints([before, after], FROM, TO)).toEqual([
      { at: before.at, inbound: 3, outbound: 1 },
      { at: before.at + 1, inbound: null, outbound: null },
      { at: after.at, inbound: 4, outbound: 2 },
    ]);
  });

  it('joins samples that came at the polling pace', () => {
    const points = chartPoints([sample(FROM + 2000, 1), sample(FROM + 4000, 2), sample(FROM + 34_000, 3)], FROM, TO);
    expect(points.every((point) => point.inbound !== null)).toBe(true);
  });
});

describe('concurrencyView and describeConcurrency', () => {
  it('reads now from the latest sample and the peak from the whole range', () => {
    const view = concurrencyView([sample(FROM - 1000, 99), sample(FROM + 60_000, 15, 8), sample(TO - 2000, 8, 4)], FROM, TO);
    expect(view.latest).toEqual(sample(TO - 2000, 8, 4));
    expect(view.peak).toEqual(sample(FROM + 60_000, 15, 8));
    expect(describeConcurrency(view, 'UTC')).toBe('Now 12 (8 in, 4 out) · Peak 23 at 13:31');
  });

  it('says when there is nothing to show yet', () => {
    expect(describeConcurrency(concurrencyView([], FROM, TO), 'UTC')).toMatch(/No samples yet/);
  });
});

describe('busiestPerMinute', () => {
  it('gives each minute its busiest sample, newest minute first', () => {
    const minute = Date.parse('2026-11-22T14:05:00.000Z');
    const rows = busiestPerMinute([
      sample(minute + 1000, 2),
      sample(minute + 30_000, 6, 1),
      sample(minute + 59_000, 3),
      sample(minute + 61_000, 1),
    ]);
    expect(rows).toEqual([
      { minute: minute + 60_000, busiest: sample(minute + 61_000, 1) },
      { minute, busiest: sample(minute + 30_000, 6, 1) },
    ]);
  });
});

describe('axis helpers', () => {
  it('leaves room above the peak for its label', () => {
    expect(axisTop(0)).toBe(4);
    expect(axisTop(23)).toBeGreaterThan(23 * 1.2);
  });

  it('reads the range from the URL, 15 minutes unless 60 is asked for', () => {
    expect(parseRange('60')).toBe(60);
    expect(parseRange('15')).toBe(15);
    expect(parseRange(null)).toBe(15);
    expect(parseRange('999')).toBe(15);
  });
});
