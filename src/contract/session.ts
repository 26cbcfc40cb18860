/**
 * Signing people in with the company's identity provider (OpenID Connect): the session the
 * dashboard holds in an httpOnly cookie, the roles a person holds, and the auth routes' paths.
 */
import { z } from 'zod';

/** What a person may do; a person in several mapped groups holds the union. */
export const roleSchema = z.enum(['agent', 'supervisor', 'analyst', 'admin']);
export type Role = z.infer<typeof roleSchema>;

/** Every state-changing request of a signed-in browser carries the session's CSRF token in this header. */
export const CSRF_HEADER = 'x-csrf-token';

/** Why a sign-in did not end in a session: `/sign-in?problem=<code>` says it to the person. */
export const signInProblemSchema = z.enum([
  /** The identity provider refused, or the person cancelled there. */
  'denied',
  /** The answer from the identity provider did not check out (state, nonce, code or ID token); start again. */
  'failed',
  /** Signed in there, but no group of theirs maps to a role here. */
  'no_role',
  /** An agent whose email matches no subscriber of any phone system here. */
  'no_subscriber',
  /** The identity provider could not be reached. */
  'provider_unavailable',
  /** The sign-in took too long or was started in another browser. */
  'expired',
]);
export type SignInProblem = z.infer<typeof signInProblemSchema>;

export const personSchema = z.object({
  /** The identity provider's subject: the person's stable ID there. */
  subject: z.string(),
  email: z.string(),
  name: z.string(),
});
export type Person = z.infer<typeof personSchema>;

/** `GET /auth/session`: whether this browser is signed in, and how it may sign in. */
export const sessionResponseSchema = z
  .discriminatedUnion('signedIn', [
    z.object({
      signedIn: z.literal(false),
      /** The sign-in button's words; absent when the service has no identity provider (tokens only). */
      signIn: z.object({ label: z.string() }).optional(),
    }),
    z.object({
      signedIn: z.literal(true),
      person: personSchema,
      roles: z.array(roleSchema).min(1),
      /** Send it in the `x-csrf-token` header with every POST, PUT and DELETE. */
      csrfToken: z.string(),
      /** When the session ends at the latest (its absolute lifetime), ISO 8601 UTC. */
      expiresAt: z.iso.datetime(),
      /** It also ends after this long without a request. */
      idleTimeoutSeconds: z.number().int().positive(),
    }),
  ])
  .meta({ id: 'SessionResponse' });
export type SessionResponse = z.infer<typeof sessionResponseSchema>;

/** `POST /auth/sign-out`: where the browser goes next (the identity provider's sign-out, when it offers one). */
export const signOutResponseSchema = z.object({ redirectTo: z.string() }).meta({ id: 'SignOutResponse' });
export type SignOutResponse = z.infer<typeof signOutResponseSchema>;

/** `GET /v1/sessions` (an admin's): the sessions open now; `DELETE /v1/sessions/:sessionID` ends one. */
export const sessionListResponseSchema = z
  .object({
    sessions: z.array(
      z.object({
        /** A handle for revoking it: not the cookie's value, which the service never stores. */
        sessionID: z.string(),
        person: personSchema,
        roles: z.array(roleSchema),
        createdAt: z.iso.datetime(),
        lastSeenAt: z.iso.datetime(),
        expiresAt: z.iso.datetime(),
      }),
    ),
  })
  .meta({ id: 'SessionListResponse' });
export type SessionListResponse = z.infer<typeof sessionListResponseSchema>;

/** Where each role lands after signing in; a person with several takes the first of admin, supervisor, analyst, agent. */
export const LANDING_BY_ROLE: Record<Role, string> = { admin: '/', supervisor: '/', analyst: '/reports', agent: '/desk' };
const LANDING_ORDER: readonly Role[] = ['admin', 'supervisor', 'analyst', 'agent'];
export const landingOf = (roles: readonly Role[]): string =>
  LANDING_BY_ROLE[LANDING_ORDER.find((role) => roles.includes(role)) ?? 'agent'];

/** A return address the service may redirect to after sign-in: a path of this site, never another's. */
export const isSafeReturnPath = (value: string): boolean =>
  value.startsWith('/') &&
  !value.startsWith('//') &&
  !value.startsWith('/\\') &&
  ![...value].some((char) => char === '\\' || char.charCodeAt(0) < 0x20);

/** The sign-in page saying "You signed out": where sign-out ends, here or back from the identity provider. */
export const SIGNED_OUT_PAGE = '/sign-in?signedOut=1';

export const authPaths = {
  /** GET: whether this browser is signed in (`SessionResponse`). */
  session: () => '/auth/session',
  /** GET: starts signing in at the identity provider; `returnTo` is where the dashboard opens after. */
  signIn: (returnTo?: string) =>
    returnTo === undefined ? '/auth/sign-in' : `/auth/sign-in?returnTo=${encodeURIComponent(returnTo)}`,
  /** GET: where the identity provider sends the browser back (the client's redirect URI). */
  callback: () => '/auth/callback',
  /** POST: ends this session here and, where it offers one, at the identity provider. */
  signOut: () => '/auth/sign-out',
  /** GET (admin): open sessions; DELETE `sessions/:sessionID` revokes one. */
  sessions: () => '/v1/sessions',
  revokeSession: (sessionID: string) => `/v1/sessions/${encodeURIComponent(sessionID)}`,
};
