/** Runs one provider request under a deadline, even when the provider ignores its abort signal. */
import { ProviderFailure } from './phone-system.js';

export const callWithDeadline = <T>(
  timeoutMs: number,
  request: (signal: AbortSignal) => Promise<T>,
  parent?: AbortSignal,
): Promise<T> => {
  const deadline = AbortSignal.timeout(timeoutMs);
  const signal = parent ? AbortSignal.any([parent, deadline]) : deadline;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () =>
      reject(
        deadline.aborted
          ? new ProviderFailure('timeout', `the provider did not answer within ${timeoutMs} ms`)
          : new ProviderFailure('unavailable', 'the request was cancelled'),
      );
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    request(signal)
      .then(resolve, (error: unknown) =>
        reject(error instanceof Error ? error : new ProviderFailure('error', String(error))),
      )
      .finally(() => signal.removeEventListener('abort', onAbort));
  });
};
