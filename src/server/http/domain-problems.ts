/**
 * The one place where the domain's errors become HTTP problems: what a provider raised, and what
 * the idempotency store refused. Domain code raises its own errors and knows nothing of HTTP.
 */
import { IdempotencyKeyReused } from '../calls/idempotency-store.js';
import { ProviderFailure, SubscriberRejection } from '../providers/phone-system.js';
import { ApiProblem } from './api-problem.js';

const RETRY_AFTER_SECONDS = '5';

const providerFailureProblem = (error: ProviderFailure): ApiProblem => {
  const provider = error.providerName ?? 'The provider';
  switch (error.kind) {
    case 'unavailable':
      return new ApiProblem('provider_unavailable', `${provider} is unavailable: ${error.message}`, {
        headers: { 'retry-after': RETRY_AFTER_SECONDS },
      });
    case 'timeout':
      return new ApiProblem('provider_timeout', `${provider} did not answer in time: ${error.message}`);
    case 'error':
      return new ApiProblem('provider_error', `${provider} answered with an error: ${error.message}`);
  }
};

/** The problem a domain error stands for, or undefined for anything else (a bug: answered as internal). */
export const domainProblem = (error: unknown): ApiProblem | undefined => {
  if (error instanceof ApiProblem) return error;
  if (error instanceof SubscriberRejection) return new ApiProblem(error.code, error.message);
  if (error instanceof ProviderFailure) return providerFailureProblem(error);
  if (error instanceof IdempotencyKeyReused) return new ApiProblem('idempotency_key_reused', error.message);
  return undefined;
};
