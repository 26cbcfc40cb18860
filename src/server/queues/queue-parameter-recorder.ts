/**
 * Keeps the journal's history of queue parameters: each provider's queues as configured are written
 * by the instance that writes its journal (alone, or the cluster's leader of that provider), once
 * it holds that role, so a report counts each call with the parameters in force when it was offered.
 * A queue whose parameters did not change gets no new row, so writing again is harmless.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { ProviderScope } from '../../contract/paths.js';
import type { Clock } from '../clock.js';
import type { HistoryStore } from '../history/history-store.js';
import type { QueueDirectory } from './queue-directory.js';
import { queueParametersInForce } from './queue-config.js';

/** What the recorder needs of a running provider. */
export interface QueueParameterSource {
  scope: ProviderScope;
  queueDirectory: QueueDirectory;
  /** Whether this instance writes the provider's journal now (alone, or its cluster's leader). */
  writesJournal(): boolean;
}

/** How often an instance that follows looks again whether it leads now. */
const LOOK_AGAIN_MS = 10_000;

/** Writes one provider's queues as configured now, at `at`; answers the queue IDs that gained a row. */
export const recordConfiguredQueues = (history: Pick<HistoryStore, 'recordQueueParameters'>, source: QueueParameterSource, at: number): Promise<string[]> =>
  history.recordQueueParameters(
    source.scope,
    source.queueDirectory.queues.map(queueParametersInForce),
    at,
  );

export interface QueueParameterRecording {
  /** Records every provider this instance writes for and has not recorded yet. */
  recordDue(): Promise<void>;
  /** Stops looking, and waits for a write under way. */
  stop(): Promise<void>;
}

export const startQueueParameterRecording = (options: {
  history: Pick<HistoryStore, 'recordQueueParameters'>;
  sources: readonly QueueParameterSource[];
  clock: Clock;
  log: FastifyBaseLogger;
  lookAgainMs?: number;
}): QueueParameterRecording => {
  const recorded = new Set<QueueParameterSource>();
  let running: Promise<void> | undefined;
  const recordDue = async () => {
    for (const source of options.sources) {
      if (recorded.has(source) || !source.writesJournal()) continue;
      try {
        await recordConfiguredQueues(options.history, source, options.clock.now());
        recorded.add(source);
      } catch (error) {
        options.log.warn({ provider: source.scope.providerID, reason: (error as Error).message }, 'queue parameters not recorded; trying again');
      }
    }
  };
  const tick = () => {
    running ??= recordDue().finally(() => {
      running = undefined;
    });
    return running;
  };
  const timer = setInterval(() => void tick(), options.lookAgainMs ?? LOOK_AGAIN_MS);
  timer.unref();
  void tick();
  return {
    recordDue: tick,
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
};
