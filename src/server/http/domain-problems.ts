/**
 * The one place where the domain's errors become HTTP problems: what a provider raised, what the
 * idempotency store refused or replayed, and which slot a token had run out of. Domain code raises its own errors and knows nothing of HTTP.
 */
import { SlotsExhausted } from '../auth/concurrency-slots.js';
import { IdempotencyKeyQuotaReached, IdempotencyKeyReused, ReplayedFailure } from '../idempotency/idempotency-store.js';
import { CallNotEndable, CallNotListenable, ProviderFailure, RemoteNumberRejection, SubscriberRejection } from '../providers/phone-system.js';
import { ApiProblem } from './api-problem.js';

const RETRY_AFTER_SECONDS = '5';

const LISTEN_PROBLEMS = { ended: 'call_ended', not_answered: 'call_not_answered', no_listener: 'listener_not_found', refused: 'listen_refused' } as const;

const providerFailureProblem = (error: ProviderFailure): ApiProblem => {
  const provider = error.providerName ?? 'The provider';
  switch (error.kind) {
    case 'unavailable':
      return new ApiProblem('provider_unavailable', `${provider} is unavailable: ${error.message}`, {
        headers: { 'retry-after': error.retryAfterMs === undefined ? RETRY_AFTER_SECONDS : String(Math.max(1, Math.ceil(error.retryAfterMs / 1000))) },
      });
    case 'timeout':
      return new ApiProblem('provider_timeout', `${provider} did not answer in time: ${error.message}`);
    case 'error':
      return new ApiProblem('provider_error', `${provider} answered with an error: ${error.message}`);
  }
};

const slotsProblem = (error: SlotsExhausted): ApiProblem => {
  const retry = { 'retry-after': '1' };
  if (error.scope === 'total')
    return new ApiProblem('service_busy', `The service is busy: it holds its limit of ${error.cap} ${error.kind.replace('-', ' ')} at once. Retry in a moment.`, {
      headers: retry,
    });
  switch (error.kind) {
    case 'requests':
      // The request's body may still be on its way: the connection closes rather than wait for it.
      return new ApiProblem(
        'too_many_concurrent_requests',
        `This token already has ${error.cap} requests in flight, its limit: wait for one to finish, or send fewer at once.`,
        { headers: { ...retry, connection: 'close' } },
      );
    case 'streams':
      return new ApiProblem('too_many_streams', `This token already has ${error.cap} streams open, its limit: close one before opening another.`, {
        headers: retry,
      });
    case 'heavy-queries':
      return new ApiProblem(
        'too_many_heavy_queries',
        `This token already has ${error.cap} heavy queries (lists with a date window, analytics) running or waiting, its limit: wait for one to finish.`,
        { headers: retry },
      );
  }
};

const quotaProblem = (error: IdempotencyKeyQuotaReached): ApiProblem => {
  const seconds = Math.max(1, Math.ceil(error.retryAfterMs / 1000));
  return new ApiProblem(
    'too_many_idempotency_keys',
    `${error.message} No call was placed. The oldest key expires in ${seconds} s; until then this application can place calls only without an Idempotency-Key (or ask for a higher limit).`,
    { headers: { 'retry-after': String(seconds) } },
  );
};

/** The first attempt's answer, said again and marked as a replay. */
const replayedProblem = (error: ReplayedFailure): ApiProblem | undefined => {
  const first = domainProblem(error.failure);
  if (!first) return undefined;
  return new ApiProblem(first.code, first.detail, {
    ...first.options,
    headers: { ...first.options.headers, 'idempotent-replayed': 'true' },
  });
};

/** The problem a domain error stands for, or undefined for anything else (a bug: answered as internal). */
export const domainProblem = (error: unknown): ApiProblem | undefined => {
  if (error instanceof ApiProblem) return error;
  if (error instanceof SubscriberRejection) return new ApiProblem(error.code, error.message);
  if (error instanceof RemoteNumberRejection)
    return new ApiProblem('remote_number_rejected', error.message, { errors: [{ field: 'remoteNumber', message: 'the provider refused to dial it' }] });
  if (error instanceof ProviderFailure) return providerFailureProblem(error);
  if (error instanceof CallNotEndable) return new ApiProblem(error.reason === 'ended' ? 'call_ended' : 'call_not_endable', error.message);
  if (error instanceof CallNotListenable) return new ApiProblem(LISTEN_PROBLEMS[error.reason], error.message);
  if (error instanceof IdempotencyKeyReused) return new ApiProblem('idempotency_key_reused', error.message);
  if (error instanceof IdempotencyKeyQuotaReached) return quotaProblem(error);
  if (error instanceof ReplayedFailure) return replayedProblem(error);
  if (error instanceof SlotsExhausted) return slotsProblem(error);
  return undefined;
};
