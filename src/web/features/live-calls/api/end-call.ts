/** Ending a live call (a supervisor's intervention), as a React Query mutation. */
import { useMutation } from '@tanstack/react-query';
import { paths, type ProviderScope } from '../../../../contract/paths.js';
import { useApi } from '../../../lib/api/api-context.js';

export const useEndCallMutation = () => {
  const client = useApi();
  return useMutation({ mutationFn: ({ scope, callID }: { scope: ProviderScope; callID: string }) => client.delete(paths.call(scope, callID)) });
};
