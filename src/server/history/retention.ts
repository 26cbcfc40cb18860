/** Prunes the database in the background, at start and every hour: calls older than the retention, and expired Idempotency-Keys. */
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.js';
import type { HistoryStore } from './history-store.js';

export const PRUNE_EVERY_MS = 3_600_000;

export interface RetentionOptions {
  store: HistoryStore;
  retentionDays: number;
  clock: Clock;
  log: FastifyBaseLogger;
}

export const pruneOnce = async ({ store, retentionDays, clock, log }: RetentionOptions): Promise<void> => {
  try {
    const removed = await store.pruneBefore(clock.now() - retentionDays * 86_400_000);
    if (removed > 0) log.info({ removed, retentionDays }, 'pruned old calls from the journal');
  } catch (error) {
    log.error({ reason: (error as Error).message }, 'pruning the call journal failed');
  }
  try {
    const expired = await store.idempotencyKeys.pruneExpired(clock.now());
    if (expired > 0) log.debug({ expired }, 'pruned expired Idempotency-Keys');
  } catch (error) {
    log.error({ reason: (error as Error).message }, 'pruning expired Idempotency-Keys failed');
  }
};

/** Starts the pruning loop; the returned function stops it and waits for a prune under way. */
export const startRetention = (options: RetentionOptions): (() => Promise<void>) => {
  let running: Promise<void> = pruneOnce(options);
  const timer = setInterval(() => {
    running = running.then(() => pruneOnce(options));
  }, PRUNE_EVERY_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
};
