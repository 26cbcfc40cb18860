/**
 * The config's `auth`: people signing in with the company's OpenID Connect provider, the groups
 * that make their roles (and, for supervisors and analysts, their queues), and how long a session
 * lives. Absent, only API tokens open the service.
 */
import { z } from 'zod';
import { QUEUE_ID_PATTERN, QUEUE_ID_RULE } from '../../contract/queues.js';
import { roleSchema } from '../../contract/session.js';
import { idSchema } from '../settings/field-rules.js';
import { secretSchema } from '../settings/secret.js';

/** A claim's place in the ID token: its name, or a dotted path into nested objects (Keycloak's `realm_access.roles`). */
const claimPathSchema = z
  .string()
  .regex(/^[A-Za-z0-9_:/-]+(\.[A-Za-z0-9_:/-]+)*$/, 'must be a claim name, or a dotted path such as "realm_access.roles"');

const roleMappingSchema = z
  .strictObject({
    /** A value of the groups claim: a group's name (Okta, Keycloak) or object ID (Entra ID). */
    group: z.string().min(1),
    role: roleSchema,
    /** A supervisor's or analyst's queues (IDs of the account's providers' queues); absent: every queue. */
    queues: z
      .array(z.string().regex(QUEUE_ID_PATTERN, `must be a queue ID: ${QUEUE_ID_RULE}`))
      .min(1)
      .optional(),
  })
  .refine((mapping) => mapping.queues === undefined || mapping.role === 'supervisor' || mapping.role === 'analyst', {
    path: ['queues'],
    message: 'only a supervisor or an analyst is scoped by queues: an agent sees their own calls, an admin everything',
  });
export type RoleMapping = z.infer<typeof roleMappingSchema>;

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);
/** An issuer or public URL must be https, except on this machine (a demo, the tests). */
const secureOrLocalURL = (what: string) =>
  z.url({ error: `must be the ${what} URL, such as https://login.example.com` }).refine(
    (text) => {
      const url = new URL(text);
      return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.has(url.hostname));
    },
    { error: 'must be https (plain http only for an address on this machine, such as http://127.0.0.1:9000)' },
  );

export const isLoopbackURL = (text: string): boolean => LOOPBACK.has(new URL(text).hostname);

const oidcSchema = z.strictObject({
  /** The provider's issuer: its discovery document is `<issuer>/.well-known/openid-configuration`. */
  issuer: secureOrLocalURL("identity provider's issuer"),
  clientID: z.string().min(1),
  clientSecret: secretSchema,
  /** How the secret is sent to the token endpoint: HTTP Basic (`client_secret_basic`, the default) or in the body (`client_secret_post`). */
  clientAuthentication: z.enum(['basic', 'post'], { error: 'must be "basic" or "post"' }).default('basic'),
  /** Asked for at sign-in; must include "openid". */
  scopes: z
    .array(z.string().regex(/^[\x21\x23-\x5b\x5d-\x7e]+$/, 'must be a scope name'))
    .default(['openid', 'email', 'profile'])
    .refine((scopes) => scopes.includes('openid'), { error: 'must include "openid"' }),
  /** The sign-in button's words. */
  label: z.string().min(1).max(60).default('Sign in with your company account'),
  /** The account people act in; may be left out when the config has one account. */
  account: idSchema.optional(),
  /** Where the ID token carries the person's email, name and groups. */
  claims: z
    .strictObject({
      email: claimPathSchema.default('email'),
      name: claimPathSchema.default('name'),
      groups: claimPathSchema.default('groups'),
    })
    .default({ email: 'email', name: 'name', groups: 'groups' }),
  roles: z.array(roleMappingSchema).min(1, 'is empty: map at least one group to a role, or nobody can sign in'),
});
export type OidcConfig = z.infer<typeof oidcSchema>;

export const SESSION_DEFAULTS = { idleMinutes: 60, lifetimeHours: 12 } as const;

export const authConfigSchema = z.strictObject({
  /** Where people open the dashboard; the identity provider sends them back to `<publicURL>/auth/callback`. Cookies are `Secure` when it is https. */
  publicURL: secureOrLocalURL("dashboard's public").refine((text) => new URL(text).pathname === '/' && !text.includes('?'), {
    error: 'must be an origin such as https://board.example.com, without a path',
  }),
  oidc: oidcSchema,
  sessions: z
    .strictObject({
      /** A session ends after this long without a request (a wall screen's polls keep it going). */
      idleMinutes: z
        .number()
        .int()
        .min(1)
        .max(7 * 24 * 60)
        .default(SESSION_DEFAULTS.idleMinutes),
      /** And at the latest this long after sign-in, whatever it does. */
      lifetimeHours: z
        .number()
        .int()
        .min(1)
        .max(90 * 24)
        .default(SESSION_DEFAULTS.lifetimeHours),
    })
    .default(SESSION_DEFAULTS),
});
export type AuthConfig = z.infer<typeof authConfigSchema>;

/** The account people sign in to: the one named, or the config's only one. */
export const oidcAccountID = (auth: AuthConfig, accountIDs: readonly string[]): string | undefined =>
  auth.oidc.account ?? (accountIDs.length === 1 ? accountIDs[0] : undefined);

interface AccountQueues {
  id: string;
  applications: readonly { providers: readonly { queues: readonly { id: string }[] }[] }[];
}

/** Every group mapping names queues the account has, and the account exists: each refusal carries its place in the config. */
export const checkAuthConfig = (auth: AuthConfig, accounts: readonly AccountQueues[], ctx: z.RefinementCtx): void => {
  const accountID = oidcAccountID(
    auth,
    accounts.map((account) => account.id),
  );
  const account = accounts.find((a) => a.id === accountID);
  if (!account) {
    ctx.addIssue({
      code: 'custom',
      path: ['auth', 'oidc', 'account'],
      message:
        auth.oidc.account === undefined
          ? 'name the account people sign in to: the config has several'
          : `no account "${auth.oidc.account}"`,
    });
    return;
  }
  const queueIDs = new Set(
    account.applications.flatMap((app) => app.providers.flatMap((provider) => provider.queues.map((queue) => queue.id))),
  );
  auth.oidc.roles.forEach((mapping, m) =>
    mapping.queues?.forEach((queueID, q) => {
      if (!queueIDs.has(queueID))
        ctx.addIssue({
          code: 'custom',
          path: ['auth', 'oidc', 'roles', m, 'queues', q],
          message: `no queue "${queueID}" in account "${account.id}": ${queueIDs.size === 0 ? 'its providers have no queues' : `its queues are ${[...queueIDs].sort().join(', ')}`}`,
        });
    }),
  );
};
