/** Concurrent-live-call samples, one per poll, kept per provider selection in localStorage for 24 h. */
import { useCallback, useSyncExternalStore } from 'react';
import type { CallRecord } from '../../contract/call-record.js';
import type { ProviderScope } from '../../contract/paths.js';
import { startOfDayIn } from '../../contract/time-zone.js';
import { isLive } from './call-state.js';

export interface ConcurrencySample {
  /** When the poll that saw these calls was received (epoch ms). */
  at: number;
  inbound: number;
  outbound: number;
}

export const SAMPLE_RETENTION_MS = 24 * 60 * 60_000;
/** Beyond the chart's longest range (60 min) one sample a minute is enough; the busiest one is kept, so peaks survive. */
const FULL_RESOLUTION_MS = 65 * 60_000;
const THINNED_BUCKET_MS = 60_000;
/** A sample from further ahead than this came from a clock that was wrong at the time. */
const FUTURE_TOLERANCE_MS = 60_000;
const PREFIX = 'callboard.concurrency.';

export const sampleTotal = (sample: Pick<ConcurrencySample, 'inbound' | 'outbound'>): number => sample.inbound + sample.outbound;

/** Live (not ended) calls by direction, as one sample. */
export const liveSample = (calls: readonly CallRecord[], at: number): ConcurrencySample => {
  let inbound = 0;
  let outbound = 0;
  for (const call of calls) {
    if (!isLive(call)) continue;
    if (call.isOutbound) outbound += 1;
    else inbound += 1;
  }
  return { at, inbound, outbound };
};

/**
 * The series a provider selection is stored under. The live view and the wallboard name a
 * selection `account/application/provider`, where several scopes only ever mean "all".
 */
export const samplesKeyForScopes = (scopes: readonly ProviderScope[], queueID?: string): string => {
  const first = scopes[0];
  if (!first) return '';
  // A view of some queues keeps its own samples: their calls are a part of the provider's.
  return `${first.accountID}/${first.applicationID}/${scopes.length === 1 ? first.providerID : 'all'}${queueID === undefined ? '' : `?queue=${queueID}`}`;
};

/** Sorted, within retention, one sample per minute past full resolution, no duplicate times. */
export const pruneSamples = (samples: readonly ConcurrencySample[], now: number): ConcurrencySample[] => {
  const oldest = now - SAMPLE_RETENTION_MS;
  const thinBefore = now - FULL_RESOLUTION_MS;
  const kept: ConcurrencySample[] = [];
  for (const sample of samples) {
    if (sample.at < oldest || sample.at > now + FUTURE_TOLERANCE_MS) continue;
    const last = kept[kept.length - 1];
    if (last && sample.at <= last.at) continue;
    if (last && sample.at < thinBefore && Math.floor(last.at / THINNED_BUCKET_MS) === Math.floor(sample.at / THINNED_BUCKET_MS)) {
      if (sampleTotal(sample) > sampleTotal(last)) kept[kept.length - 1] = sample;
      continue;
    }
    kept.push(sample);
  }
  return kept;
};

const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 0;

/** Whatever is stored, this returns valid samples: another version or a hand edit must not break the page. */
export const parseStoredSamples = (text: string | null, now: number): ConcurrencySample[] => {
  if (!text) return [];
  let stored: unknown;
  try {
    stored = JSON.parse(text);
  } catch {
    return [];
  }
  const rows = typeof stored === 'object' && stored !== null ? (stored as { samples?: unknown }).samples : undefined;
  if (!Array.isArray(rows)) return [];
  const samples: ConcurrencySample[] = [];
  for (const row of rows) {
    if (!Array.isArray(row)) continue;
    const [at, inbound, outbound] = row as unknown[];
    if (typeof at === 'number' && Number.isFinite(at) && isCount(inbound) && isCount(outbound))
      samples.push({ at, inbound, outbound });
  }
  return pruneSamples(
    samples.sort((a, b) => a.at - b.at),
    now,
  );
};

/** Compact rows: a day at one poll every 2 s stays far below the storage quota. */
const serialize = (samples: readonly ConcurrencySample[]): string =>
  JSON.stringify({ version: 1, samples: samples.map((s) => [s.at, s.inbound, s.outbound]) });

const readStorage = (key: string): string | null => {
  try {
    return localStorage.getItem(PREFIX + key);
  } catch {
    return null;
  }
};

const writeStorage = (key: string, samples: readonly ConcurrencySample[]) => {
  try {
    localStorage.setItem(PREFIX + key, serialize(samples));
  } catch {
    // Storage full or forbidden: the samples still live in memory for this page.
  }
};

const cache = new Map<string, ConcurrencySample[]>();
const listeners = new Map<string, Set<() => void>>();
const NO_SAMPLES: ConcurrencySample[] = [];

const notify = (key: string) => {
  for (const listener of listeners.get(key) ?? []) listener();
};

/** The samples of one series, oldest first; the same array until a sample is added. */
export const readSamples = (key: string, now: number = Date.now()): ConcurrencySample[] => {
  let samples = cache.get(key);
  if (!samples) {
    samples = parseStoredSamples(readStorage(key), now);
    cache.set(key, samples);
  }
  return samples;
};

/** Adds a sample unless the series already has one as recent; answers whether it did. */
export const recordSample = (key: string, sample: ConcurrencySample, now: number = Date.now()): boolean => {
  const samples = readSamples(key, now);
  const last = samples[samples.length - 1];
  if (last && sample.at <= last.at) return false;
  const next = pruneSamples([...samples, sample], now);
  cache.set(key, next);
  writeStorage(key, next);
  notify(key);
  return true;
};

/**
 * Adds samples told by the journal where the series has none of its own within the same minute:
 * a page opened at 9:00 shows the morning at once, and its own samples stay where it has them.
 */
export const seedSamples = (key: string, seeds: readonly ConcurrencySample[], now: number = Date.now()): void => {
  const samples = readSamples(key, now);
  const covered = new Set(samples.map((sample) => Math.floor(sample.at / THINNED_BUCKET_MS)));
  const added = seeds.filter((seed) => !covered.has(Math.floor(seed.at / THINNED_BUCKET_MS)));
  if (added.length === 0) return;
  const next = pruneSamples(
    [...samples, ...added].sort((a, b) => a.at - b.at),
    now,
  );
  cache.set(key, next);
  writeStorage(key, next);
  notify(key);
};

const subscribe = (key: string, listener: () => void) => {
  let set = listeners.get(key);
  if (!set) {
    set = new Set();
    listeners.set(key, set);
  }
  set.add(listener);
  // Another tab showing the same selection writes the same series: read its version, then both tabs add to one.
  const onStorage = (event: StorageEvent) => {
    if (event.key !== null && event.key !== PREFIX + key) return;
    cache.delete(key);
    listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    set.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
};

/** The samples of one series, re-rendering when one is added (here or in another tab). */
export const useConcurrencySamples = (key: string): ConcurrencySample[] => {
  // Stable per key: pages re-render every second, and a new subscribe function would re-subscribe each time.
  const subscribeToKey = useCallback((listener: () => void) => subscribe(key, listener), [key]);
  const snapshot = useCallback(() => readSamples(key), [key]);
  return useSyncExternalStore(subscribeToKey, snapshot, () => NO_SAMPLES);
};

/** The busiest sample from `from` on (the earliest of equals), if any. */
export const peakSample = (samples: readonly ConcurrencySample[], from: number, to = Infinity): ConcurrencySample | undefined => {
  let peak: ConcurrencySample | undefined;
  for (const sample of samples) {
    if (sample.at < from || sample.at > to) continue;
    if (!peak || sampleTotal(sample) > sampleTotal(peak)) peak = sample;
  }
  return peak;
};

/** The samples did not begin this close to midnight: a peak "today" would claim hours nobody watched. */
const COMPLETE_DAY_TOLERANCE_MS = 2 * 60_000;

export interface PeakToday {
  total: number;
  at: number;
  /** When today's record begins, if later than midnight (the page was not open since then). */
  since: number | undefined;
}

/**
 * Today's busiest moment in `zone`, from the samples and the calls live right now (a count on
 * screen must never exceed the peak shown beside it).
 */
export const peakToday = (samples: readonly ConcurrencySample[], live: number, now: number, zone: string): PeakToday => {
  const midnight = startOfDayIn(zone, now);
  const peak = peakSample(samples, midnight);
  const first = samples.find((sample) => sample.at >= midnight);
  const start = first ? first.at : now;
  const since = start - midnight > COMPLETE_DAY_TOLERANCE_MS ? start : undefined;
  if (!peak || live > sampleTotal(peak)) return { total: live, at: now, since };
  return { total: sampleTotal(peak), at: peak.at, since };
};
