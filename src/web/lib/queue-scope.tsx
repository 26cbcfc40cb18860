/**
 * Which queues a view shows (`?queue=support,sales` in the URL, `none` for the calls in no queue):
 * every part of the page reads it from here, and asks the service for those queues' figures only.
 * One queue's own parameters (answered within, short abandons, target) become the view's.
 */
import { createContext, useCallback, useContext, useMemo, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { NO_QUEUE, QUEUE_ID_PATTERN } from '../../contract/queue-filter.js';
import type { QueueSettings } from '../../contract/queues.js';

export interface QueueScope {
  /** The queue IDs shown (with `none` for the calls in no queue), as the service's `queueID=` takes them. */
  ids: readonly string[];
  /** The `queueID=` value. */
  param: string;
  /** The one queue shown, when one is: its own parameters are the view's. */
  single: QueueSettings | undefined;
}

/** The queue IDs a `?queue=` value names, valid ones only, each once. */
export const readQueueParam = (text: string | null): string[] =>
  [...new Set((text ?? '').split(',').filter((id) => id === NO_QUEUE || QUEUE_ID_PATTERN.test(id)))].slice(0, 50);

export const useQueueParam = (): [string[], (ids: readonly string[]) => void] => {
  const [params, setParams] = useSearchParams();
  const ids = useMemo(() => readQueueParam(params.get('queue')), [params]);
  const set = useCallback(
    (next: readonly string[]) =>
      setParams(
        (current) => {
          const updated = new URLSearchParams(current);
          if (next.length === 0) updated.delete('queue');
          else updated.set('queue', next.join(','));
          return updated;
        },
        { replace: false },
      ),
    [setParams],
  );
  return [ids, set];
};

const QueueScopeContext = createContext<QueueScope | undefined>(undefined);

export const QueueScopeProvider = ({ scope, children }: { scope: QueueScope | undefined; children: ReactNode }) => (
  <QueueScopeContext.Provider value={scope}>{children}</QueueScopeContext.Provider>
);

/** The queues the view shows, or undefined when it shows every call. */
export const useQueueScope = (): QueueScope | undefined => useContext(QueueScopeContext);

/** Whether a call is one of the queues shown. */
export const inQueueScope = (scope: QueueScope | undefined, call: { queueID?: string | undefined }): boolean =>
  scope === undefined || scope.ids.includes(call.queueID ?? NO_QUEUE);
