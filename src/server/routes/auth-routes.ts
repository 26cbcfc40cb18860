/**
 * Signing people in with the company's identity provider: `/auth/sign-in` sends the browser there,
 * `/auth/callback` checks what comes back and opens a session, `/auth/session` tells the page who
 * is signed in, `/auth/sign-out` ends it here and there. A failed sign-in lands on the dashboard's
 * `/sign-in?problem=<code>`; the log says why, the page says what to do.
 */
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  authPaths,
  isSafeReturnPath,
  SIGNED_OUT_PAGE,
  landingOf,
  sessionResponseSchema,
  signOutResponseSchema,
  type SessionResponse,
  type SignInProblem,
  type SignOutResponse,
} from '../../contract/session.js';
import { oidcAccountID, type AuthConfig } from '../config/auth-config.js';
import { claimAt, grantsOfGroups, groupsOfClaim, type Grants, type SubscriberBinding } from '../auth/grants.js';
import { OidcClient, SignInFailure } from '../auth/oidc-client.js';
import { RateLimiter } from '../auth/rate-limiter.js';
import { SessionManager, SIGN_IN_WITHIN_MS } from '../auth/session-manager.js';
import type { Clock } from '../clock.js';
import type { SessionsTable } from '../history/sessions-table.js';
import { ApiProblem } from '../http/api-problem.js';
import { cookieNames, cookieValue, setCookie } from '../http/cookies.js';
import { checkCsrf } from '../http/csrf.js';
import type { RouteDoc } from '../http/route-catalog.js';
import type { ProviderRuntimes } from '../runtime/provider-runtimes.js';

/** Sign-ins one address may start a minute: each writes a row until it comes back or expires. */
const SIGN_INS_PER_MINUTE = 60;
const MAX_TRACKED_ADDRESSES = 10_000;

export interface SignInSetup {
  auth: AuthConfig;
  oidc: OidcClient;
  sessions: SessionManager;
  table: SessionsTable;
  /** The account people act in. */
  accountID: string;
  /** Whether `publicURL` is https: the cookies are then `Secure`, with their `__Host-` names. */
  secure: boolean;
  cookies: { session: string; signIn: string };
  /** `publicURL`'s origin: what a session's state-changing request must come from. */
  origin: string;
}

/** What people's sign-in needs, worked out once from the config's `auth`. */
export const signInSetupOf = (auth: AuthConfig, accountIDs: readonly string[], table: SessionsTable, clock: Clock, log: FastifyBaseLogger): SignInSetup => {
  const accountID = oidcAccountID(auth, accountIDs) as string;
  const secure = auth.publicURL.startsWith('https:');
  return {
    auth,
    table,
    oidc: new OidcClient(auth.oidc, new URL(authPaths.callback(), auth.publicURL).toString()),
    sessions: new SessionManager(table, accountID, auth, clock, log),
    accountID,
    secure,
    cookies: cookieNames(secure),
    origin: new URL(auth.publicURL).origin,
  };
};

export interface AuthRoutesOptions {
  /** Absent: no identity provider; `/auth/session` says so, and the dashboard asks for a token. */
  signIn: SignInSetup | undefined;
  registry: ProviderRuntimes;
  clock: Clock;
}

const sessionDoc: RouteDoc = {
  operationId: 'getSession',
  summary: 'Whether this browser is signed in (extension)',
  description:
    "A person's session is an httpOnly cookie set at sign-in. Signed in: the person, their roles, the CSRF token to send in " +
    "`x-csrf-token` with every POST, PUT and DELETE, and when the session ends. Not signed in: the sign-in button's label, when the " +
    'service has an identity provider.',
  public: true,
  responses: { '200': { description: 'Signed in or not', json: sessionResponseSchema } },
};

const signInDoc: RouteDoc = {
  operationId: 'signIn',
  summary: 'Sign in with the identity provider (extension)',
  description:
    'Redirects the browser to the identity provider (authorization code with PKCE, state and nonce). `returnTo`, a path of this ' +
    "site, is where the dashboard opens after; without it, the person's role decides. An address off this site is refused.",
  public: true,
  parameters: [{ name: 'returnTo', in: 'query', schema: { type: 'string' } }],
  responses: { '302': { description: "To the identity provider's sign-in page, or to `/sign-in?problem=provider_unavailable`" } },
  problems: ['invalid_request', 'rate_limited', 'not_found'],
};

const callbackDoc: RouteDoc = {
  operationId: 'signInCallback',
  summary: "The identity provider's redirect back (extension)",
  description:
    'Checks the state (once only, and in the browser that started), trades the code for tokens and checks the ID token; then opens ' +
    'a new session (a new ID, whatever cookie came) and redirects to `returnTo`, or to `/sign-in?problem=<code>`.',
  public: true,
  responses: { '302': { description: 'Into the dashboard, signed in; or to `/sign-in?problem=<code>`' } },
  problems: ['not_found'],
};

const signOutDoc: RouteDoc = {
  operationId: 'signOut',
  summary: 'Sign out (extension)',
  description:
    "Ends this browser's session here, and answers where to go next: the identity provider's sign-out page where it offers one, " +
    "else the sign-in page. Needs the `x-csrf-token` header and this site's `Origin`, like every state-changing request of a session.",
  public: true,
  responses: { '200': { description: 'Where the browser goes next', json: signOutResponseSchema } },
  problems: ['csrf_failed'],
};

/** The problem page a failed sign-in lands on. */
const problemPage = (problem: SignInProblem) => `/sign-in?problem=${problem}`;

export const authRoutes = async (app: FastifyInstance, options: AuthRoutesOptions) => {
  const setup = options.signIn;

  app.get(authPaths.session(), { config: { doc: sessionDoc } }, async (request, reply): Promise<SessionResponse> => {
    reply.header('cache-control', 'no-store');
    if (!setup) return { signedIn: false };
    const presented = cookieValue(request.headers.cookie, setup.cookies.session);
    const principal = presented === undefined ? undefined : await setup.sessions.principalOf(presented);
    return typeof principal === 'object' ? setup.sessions.describe(principal) : { signedIn: false, signIn: { label: setup.auth.oidc.label } };
  });

  if (!setup) return;
  const { auth, oidc, sessions, table, accountID, secure, cookies: names, origin } = setup;
  const starts = new RateLimiter(SIGN_INS_PER_MINUTE, options.clock, MAX_TRACKED_ADDRESSES);
  const signInCookie = (value: string, maxAgeSeconds: number) =>
    setCookie(names.signIn, value, { secure, path: '/', maxAgeSeconds });

  const fail = (request: FastifyRequest, reply: FastifyReply, failure: SignInFailure) => {
    request.log.warn({ signIn: failure.problem }, `a sign-in failed: ${failure.message}`);
    return reply.header('set-cookie', signInCookie('', 0)).redirect(problemPage(failure.problem), 302);
  };

  app.get(
    authPaths.signIn(),
    { config: { doc: signInDoc } },
    async (request: FastifyRequest<{ Querystring: { returnTo?: unknown } }>, reply) => {
      const returnTo = request.query.returnTo;
      if (returnTo !== undefined && (typeof returnTo !== 'string' || !isSafeReturnPath(returnTo)))
        throw new ApiProblem('invalid_request', 'returnTo must be a path of this site, such as "/reports".', {
          errors: [{ field: 'returnTo', message: 'must be a path of this site' }],
        });
      const decision = starts.take(request.ip);
      if (!decision.allowed)
        throw new ApiProblem(
          'rate_limited',
          `Too many sign-ins started from your address; retry in ${decision.retryAfterSeconds} s.`,
          {
            headers: { 'retry-after': String(decision.retryAfterSeconds) },
          },
        );
      let start;
      try {
        start = await oidc.start();
      } catch (error) {
        if (error instanceof SignInFailure) return fail(request, reply, error);
        throw error;
      }
      await table.saveSignInRequest({
        state: start.state,
        nonce: start.nonce,
        codeVerifier: start.codeVerifier,
        returnTo: typeof returnTo === 'string' ? returnTo : undefined,
        createdAt: options.clock.now(),
      });
      // The state also rides in a cookie of this browser: a callback in another browser (someone else's link) is refused.
      return reply
        .header('set-cookie', signInCookie(start.state, SIGN_IN_WITHIN_MS / 1000))
        .header('cache-control', 'no-store')
        .redirect(start.url.toString(), 302);
    },
  );

  /** The subscribers, at every provider, whose email is the person's: an agent's own. */
  const bindingsOf = async (email: string): Promise<SubscriberBinding[]> => {
    const wanted = email.toLowerCase();
    const found = await Promise.all(
      options.registry
        .all()
        .filter((runtime) => runtime.scope.accountID === accountID)
        .map(async (runtime) => {
          try {
            const subscribers = await runtime.listSubscribers();
            return subscribers
              .filter((subscriber) => subscriber.email.toLowerCase() === wanted)
              .map((subscriber) => ({
                applicationID: runtime.scope.applicationID,
                providerID: runtime.scope.providerID,
                subscriberID: subscriber.providerSubscriberID,
              }));
          } catch (error) {
            app.log.warn(
              { err: error, provider: runtime.scope.providerID },
              "an agent's subscribers could not be looked up at sign-in",
            );
            return [];
          }
        }),
    );
    return found.flat();
  };

  const grantsOf = async (claims: Record<string, unknown>, email: string): Promise<Grants> => {
    const groups = groupsOfClaim(claimAt(claims, auth.oidc.claims.groups));
    const { roles, queues, controlQueues } = grantsOfGroups(auth.oidc.roles, groups);
    if (roles.length === 0)
      throw new SignInFailure(
        'no_role',
        groups.length === 0
          ? `the ID token and UserInfo carry no groups at "${auth.oidc.claims.groups}"`
          : `none of their ${groups.length} groups maps to a role (the first: ${groups.slice(0, 5).map((group) => `"${group}"`).join(', ')})`,
      );
    // An email the provider says it has not verified binds no subscriber: anyone could have typed it.
    const subscribers = roles.includes('agent') && claims.email_verified !== false ? await bindingsOf(email) : [];
    if (roles.length === 1 && roles[0] === 'agent' && subscribers.length === 0)
      throw new SignInFailure('no_subscriber', 'an agent whose email matches no subscriber of any provider');
    return { roles, queues, subscribers, controlQueues };
  };

  app.get(authPaths.callback(), { config: { doc: callbackDoc } }, async (request, reply) => {
    const callbackURL = new URL(request.url, auth.publicURL);
    const state = callbackURL.searchParams.get('state');
    const started = cookieValue(request.headers.cookie, names.signIn);
    try {
      if (state === null || started === undefined || started !== state)
        throw new SignInFailure('expired', 'the state is missing, or this browser did not start this sign-in');
      // Taken once: the same state (a replayed callback) finds nothing the second time.
      const pending = await table.takeSignInRequest(state);
      if (!pending) throw new SignInFailure('expired', 'no sign-in is under way with this state (already used, or expired)');
      if (options.clock.now() - pending.createdAt > SIGN_IN_WITHIN_MS)
        throw new SignInFailure('expired', 'the sign-in took longer than 10 minutes');
      const topLevel = (path: string) => path.split('.')[0] as string;
      const { claims, idToken } = await oidc.finish(callbackURL, pending, [auth.oidc.claims.email, auth.oidc.claims.groups, auth.oidc.claims.name].map(topLevel));
      const subject = claims.sub;
      const email = claimAt(claims, auth.oidc.claims.email);
      if (typeof subject !== 'string' || typeof email !== 'string' || email === '')
        throw new SignInFailure('failed', `the ID token carries no email at "${auth.oidc.claims.email}"`);
      const name = claimAt(claims, auth.oidc.claims.name);
      const grants = await grantsOf(claims, email);
      // Never carry on a session the browser brought: a new one, with a new ID, for whoever signed in.
      await sessions.endPresented(cookieValue(request.headers.cookie, names.session));
      const created = await sessions.create(
        { subject, email, name: typeof name === 'string' && name !== '' ? name : email, idToken },
        grants,
      );
      request.log.info({ signIn: { subject, roles: grants.roles } }, 'a person signed in');
      return reply
        .header('set-cookie', [
          setCookie(names.session, created.sessionID, {
            secure,
            path: '/',
            maxAgeSeconds: Math.floor(sessions.lifetimeMs / 1000),
          }),
          signInCookie('', 0),
        ])
        .header('cache-control', 'no-store')
        .redirect(pending.returnTo ?? landingOf(grants.roles), 302);
    } catch (error) {
      if (error instanceof SignInFailure) return fail(request, reply, error);
      throw error;
    }
  });

  app.post(authPaths.signOut(), { config: { doc: signOutDoc } }, async (request, reply): Promise<SignOutResponse> => {
    const signedOut = new URL(SIGNED_OUT_PAGE, auth.publicURL).toString();
    const presented = cookieValue(request.headers.cookie, names.session);
    const found = presented === undefined ? undefined : await sessions.principalOf(presented);
    const principal = typeof found === 'object' ? found : undefined;
    reply.header('cache-control', 'no-store');
    if (!principal?.person) return { redirectTo: SIGNED_OUT_PAGE };
    checkCsrf(request, principal.person.csrfToken, origin);
    const idToken = sessions.idTokenOf(principal);
    await sessions.end(principal.person.sessionID, 'signed-out');
    request.log.info({ signOut: { subject: principal.person.subject } }, 'a person signed out');
    reply.header('set-cookie', setCookie(names.session, '', { secure, path: '/', maxAgeSeconds: 0 }));
    return { redirectTo: (await oidc.endSessionURL(idToken, signedOut)) ?? SIGNED_OUT_PAGE };
  });
};
