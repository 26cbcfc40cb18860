/**
 * How a backfill cuts its past into chunks: the newest hour first (what a supervisor looks at),
 * then back a day at a time; near the budget of calls, chunks shrink so that each is expected to
 * take at most a third of what is left, and the backfill stops when that would be under 15 minutes.
 */
import type { BackfillProgress } from './backfill-ledger.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
export const NEWEST_CHUNK_MS = HOUR;
export const CHUNK_MS = 24 * HOUR;
/** Shorter chunks are not worth their warm-up: the budget is spent. */
export const MIN_CHUNK_MS = 15 * MINUTE;
/**
 * An older stretch may be busier than any seen so far (a weekday behind a quiet night): a chunk is
 * sized for three times the busiest rate seen, so it passes the budget only if it is busier still.
 */
const RATE_HEADROOM = 3;

export type NextChunk = { from: number } | { done: 'complete' | 'capped' };

/**
 * The next chunk ends where the history is filled from. `callsPerMs` is the busiest rate seen so
 * far; the newest chunk, having none to go by, is filled whatever the budget says. A chunk, once
 * begun, is finished: cutting it short would leave a gap between it and the newer history.
 */
export const nextChunk = (progress: BackfillProgress, maxCalls: number, callsPerMs: number): NextChunk => {
  const left = progress.filledFrom - progress.since;
  if (left <= 0) return { done: 'complete' };
  if (progress.filledFrom === progress.to) return { from: progress.filledFrom - Math.min(left, NEWEST_CHUNK_MS) };
  const room = maxCalls - progress.calls;
  const fits = callsPerMs > 0 ? Math.floor(room / (RATE_HEADROOM * callsPerMs)) : Infinity;
  const length = Math.min(CHUNK_MS, left, fits);
  if (room <= 0 || length < Math.min(MIN_CHUNK_MS, left)) return { done: 'capped' };
  return { from: progress.filledFrom - length };
};

/** Calls per ms over what a backfill wrote before this start, for sizing chunks after a restart. */
export const averageRate = (progress: BackfillProgress): number => {
  const covered = progress.to - progress.filledFrom + (progress.chunk ? progress.chunk.through - progress.chunk.from : 0);
  return covered > 0 ? progress.calls / covered : 0;
};
