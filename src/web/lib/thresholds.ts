/** Supervisor thresholds (long call, long ring, many concurrent calls), kept on this device. */
import { useCallback, useSyncExternalStore } from 'react';
import { callTimes } from './call-times.js';

export interface Thresholds {
  longCallMs: number;
  longRingMs: number;
  concurrentCalls: number;
}

export const defaultThresholds: Thresholds = { longCallMs: 10 * 60_000, longRingMs: 30_000, concurrentCalls: 20 };

const KEY = 'callboard.thresholds';
const listeners = new Set<() => void>();
let cachedText: string | null = null;
let cached: Thresholds = defaultThresholds;

const read = (): Thresholds => {
  const text = localStorage.getItem(KEY);
  if (text === cachedText) return cached;
  cachedText = text;
  try {
    const value = text ? (JSON.parse(text) as Partial<Thresholds>) : {};
    const positive = (n: unknown, fallback: number) => (typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : fallback);
    cached = {
      longCallMs: positive(value.longCallMs, defaultThresholds.longCallMs),
      longRingMs: positive(value.longRingMs, defaultThresholds.longRingMs),
      concurrentCalls: positive(value.concurrentCalls, defaultThresholds.concurrentCalls),
    };
  } catch {
    cached = defaultThresholds;
  }
  return cached;
};

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  window.addEventListener('storage', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', listener);
  };
};

export const useThresholds = (): [Thresholds, (next: Thresholds) => void] => {
  const thresholds = useSyncExternalStore(subscribe, read, () => defaultThresholds);
  const save = useCallback((next: Thresholds) => {
    localStorage.setItem(KEY, JSON.stringify(next));
    for (const listener of listeners) listener();
  }, []);
  return [thresholds, save];
};

/** Which threshold a call crosses now, if any. */
export const callAlert = (
  call: { answeredAt?: string; startedAt: string; endedAt?: string; isMissedCall: boolean },
  now: number,
  thresholds: Thresholds,
): 'long-call' | 'long-ring' | undefined => {
  if (call.endedAt !== undefined) return undefined;
  const times = callTimes(call);
  if (times.answeredAt !== undefined) return now - times.answeredAt >= thresholds.longCallMs ? 'long-call' : undefined;
  return now - times.startedAt >= thresholds.longRingMs ? 'long-ring' : undefined;
};
