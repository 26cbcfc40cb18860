/**
 * Whether this browser is signed in (`GET /auth/session`), asked before there is any connection,
 * and signing a session out (`POST /auth/sign-out`).
 */
import { queryOptions } from '@tanstack/react-query';
import {
  authPaths,
  sessionResponseSchema,
  signOutResponseSchema,
  type SessionResponse,
  type SignOutResponse,
} from '../../../contract/session.js';
import type { SessionConnection } from '../connection.js';
import type { ApiClient } from './api-client.js';
import { ApiError, errorFromResponse } from './api-error.js';

export type SignedInSession = Extract<SessionResponse, { signedIn: true }>;

/** Tokens only: what a service without sign-in amounts to. */
const NO_SIGN_IN: SessionResponse = { signedIn: false };

/**
 * The service's answer, parsed with the contract. A service without the route (one from before
 * sign-in, or a development server that does not pass `/auth` on and answers its page instead)
 * offers tokens only; a service out of reach is an error, asked again.
 */
export const readSession = async (signal?: AbortSignal): Promise<SessionResponse> => {
  let response: Response;
  try {
    response = await fetch(authPaths.session(), { signal, cache: 'no-store', headers: { accept: 'application/json' } });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ApiError('network_unreachable', `Cannot reach ${window.location.origin} to check your sign-in.`);
  }
  if (response.status === 404 || response.status === 405) return NO_SIGN_IN;
  if (!response.ok) throw await errorFromResponse(response);
  const parsed = sessionResponseSchema.safeParse(await response.json().catch(() => undefined));
  return parsed.success ? parsed.data : NO_SIGN_IN;
};

export const sessionKeys = {
  all: ['auth-session'] as const,
};

const LONGEST_RETRY_MS = 30_000;

/**
 * Asked once at start-up and again when a session ends; a session's end shows as a 401 from the
 * API, so nothing here polls. Nobody may be at a wall screen that reloads while the service is
 * down: it asks until the service answers.
 */
export const sessionQueryOptions = () =>
  queryOptions({
    queryKey: sessionKeys.all,
    queryFn: ({ signal }) => readSession(signal),
    staleTime: Infinity,
    refetchOnWindowFocus: false,
    retry: true,
    retryDelay: (attempt) => Math.min(LONGEST_RETRY_MS, 1000 * 2 ** attempt),
  });

export const sessionConnectionOf = (session: SignedInSession): SessionConnection => ({
  kind: 'session',
  baseURL: '',
  csrfToken: session.csrfToken,
  person: session.person,
  roles: session.roles,
});

/** Ends the session here (and at the identity provider, where it offers that): the answer says where the browser goes next. */
export const signOutSession = (client: ApiClient): Promise<SignOutResponse> =>
  client.postForAnswer(authPaths.signOut(), signOutResponseSchema);
