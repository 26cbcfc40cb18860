/** The queues of the providers on screen, as one list of rows, polled while the page shows them. */
import { useQueries, type UseQueryResult } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { ProviderScope } from '../../../contract/paths.js';
import type { QueueFigures, QueuesResponse, UnqueuedFigures } from '../../../contract/queues.js';
import { useApi } from './api-context.js';
import type { ApiError } from './api-error.js';
import { queuesQueryOptions } from './queues-query.js';
import { identityOfLists } from './list-identity.js';
import { usePolling } from '../polling-context.js';
import type { StreamMode } from './call-stream.js';

/** A queue with the provider it belongs to (queue IDs are unique per provider only). */
export interface QueueRow {
  providerID: string;
  queue: QueueFigures;
}

export interface QueuesFeed {
  status: 'pending' | 'ready' | 'error';
  rows: QueueRow[];
  /** The calls in no queue, per provider. */
  unqueued: { providerID: string; figures: UnqueuedFigures }[];
  /** When the service computed the figures (the latest of the providers'). */
  figuresAt?: string;
  /** Some provider did not answer: the rows are the others'. */
  partial: boolean;
  error?: ApiError;
}

/** Filled by the tab's change stream, or polled while the stream cannot be had (`mode`); `enabled: false` polls nothing. */
export const useQueues = (scopes: readonly ProviderScope[], mode: StreamMode, { enabled = true }: { enabled?: boolean } = {}): QueuesFeed => {
  const client = useApi();
  const { paused } = usePolling();
  const results = useQueries({
    queries: scopes.map((scope) => queuesQueryOptions(client, scope, enabled && !paused && mode === 'polling')),
  }) as UseQueryResult<QueuesResponse, ApiError>[];
  const answers = results.map((result) => result.data);
  const identity = identityOfLists(answers);
  const failing = results.find((result) => result.isError);
  return useMemo(() => {
    const rows: QueueRow[] = [];
    const unqueued: QueuesFeed['unqueued'] = [];
    let figuresAt: string | undefined;
    answers.forEach((answer, i) => {
      if (!answer) return;
      const providerID = scopes[i]?.providerID ?? '';
      for (const queue of answer.queues) rows.push({ providerID, queue });
      if (answer.unqueued) unqueued.push({ providerID, figures: answer.unqueued });
      if (figuresAt === undefined || answer.figuresAt > figuresAt) figuresAt = answer.figuresAt;
    });
    const loaded = answers.filter(Boolean).length;
    return {
      status: loaded > 0 ? 'ready' : failing ? 'error' : 'pending',
      rows,
      unqueued,
      ...(figuresAt === undefined ? {} : { figuresAt }),
      partial: loaded > 0 && loaded < scopes.length,
      ...(failing?.error ? { error: failing.error } : {}),
    };
    // Recombined only when an answer is a new object: the identity string says exactly when.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [identity, scopes, failing?.error]);
};
