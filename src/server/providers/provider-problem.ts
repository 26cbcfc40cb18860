/** Maps what a provider raised to the service's problem codes. */
import { ApiProblem } from '../http/api-problem.js';
import { ProviderFailure, SubscriberRejection } from './phone-system.js';

const RETRY_AFTER_SECONDS = '5';

export const providerProblem = (error: unknown, providerName: string): ApiProblem => {
  if (error instanceof ApiProblem) return error;
  if (error instanceof SubscriberRejection) return new ApiProblem(error.code, error.message);
  if (error instanceof ProviderFailure) {
    switch (error.kind) {
      case 'unavailable':
        return new ApiProblem('provider_unavailable', `${providerName} is unavailable: ${error.message}`, {
          headers: { 'retry-after': RETRY_AFTER_SECONDS },
        });
      case 'timeout':
        return new ApiProblem('provider_timeout', `${providerName} did not answer in time: ${error.message}`);
      case 'error':
        return new ApiProblem('provider_error', `${providerName} answered with an error: ${error.message}`);
    }
  }
  throw error;
};
