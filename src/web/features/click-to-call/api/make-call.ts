/** The make-call request (POST, plural `providers`) with its Idempotency-Key, as a React Query mutation. */
import { useMutation } from '@tanstack/react-query';
import { IDEMPOTENCY_KEY_HEADER, type MakeCallRequest } from '../../../../contract/make-call.js';
import { paths, type ProviderScope } from '../../../../contract/paths.js';
import { useApi } from '../../../lib/api/api-context.js';

export interface MakeCallVariables {
  scope: ProviderScope;
  request: MakeCallRequest;
  idempotencyKey: string;
}

export const useMakeCallMutation = () => {
  const client = useApi();
  return useMutation({
    mutationFn: ({ scope, request, idempotencyKey }: MakeCallVariables) =>
      client.post(paths.makeCall(scope), request, { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey }),
  });
};
