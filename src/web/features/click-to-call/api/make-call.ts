/** The make-call request (POST, plural `providers`) with its Idempotency-Key, as a React Query mutation. */
import { useMutation } from '@tanstack/react-query';
import { IDEMPOTENCY_KEY_HEADER, type MakeCallRequest } from '../../../../contract/make-call.js';
import { paths, type ProviderScope } from '../../../../contract/paths.js';
import { ApiError } from '../../../lib/api/api-error.js';
import { useConnection } from '../../../lib/connection-context.js';

export interface MakeCallVariables {
  scope: ProviderScope;
  request: MakeCallRequest;
  idempotencyKey: string;
}

export const useMakeCallMutation = () => {
  const { client } = useConnection();
  return useMutation<void, ApiError, MakeCallVariables>({
    mutationFn: async ({ scope, request, idempotencyKey }) => {
      if (!client) throw new ApiError('unauthorized', 'Sign in before placing a call.');
      try {
        await client.post(paths.makeCall(scope), request, { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey });
      } catch (error) {
        throw error instanceof ApiError ? error : new ApiError('http_error', String(error));
      }
    },
  });
};
