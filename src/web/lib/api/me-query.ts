/** What the token or the signed-in person may see (`/v1/me`), where the service offers it. */
import { queryOptions, skipToken } from '@tanstack/react-query';
import { meResponseSchema } from '../../../contract/me.js';
import { paths } from '../../../contract/paths.js';
import { manualScopeOf } from '../connection.js';
import type { ApiClient } from './api-client.js';

export const meKeys = {
  all: ['me'] as const,
  service: (baseURL: string) => [...meKeys.all, baseURL] as const,
};

/** A connection with a hand-typed scope is to a service without `/v1/me`: nothing to ask there. */
export const meQueryOptions = (client: ApiClient) =>
  queryOptions({
    queryKey: meKeys.service(client.baseURL),
    queryFn: manualScopeOf(client.connection) ? skipToken : ({ signal }) => client.get(paths.me(), meResponseSchema, signal),
    staleTime: 5 * 60_000,
    retry: false,
  });
