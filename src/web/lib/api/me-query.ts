/** What the token may see (`/v1/me`), where the service offers it. */
import { queryOptions } from '@tanstack/react-query';
import { meResponseSchema } from '../../../contract/me.js';
import { paths } from '../../../contract/paths.js';
import type { ApiClient } from './api-client.js';

export const meQueryOptions = (client: ApiClient, baseURL: string) =>
  queryOptions({
    queryKey: ['me', baseURL] as const,
    queryFn: ({ signal }) => client.get(paths.me(), meResponseSchema, signal),
    staleTime: 5 * 60_000,
    retry: false,
  });
