/** The service's configuration file format (JSON), validated at start-up. */
import { z } from 'zod';
import { permissionSchema } from '../../contract/me.js';
import { authConfigSchema, checkAuthConfig } from './auth-config.js';
import { isTimeZone } from '../../contract/time-zone.js';
import { ID_PATTERN, ID_RULE, idSchema } from '../settings/field-rules.js';
import type { AnyProviderDefinition, ProviderDefaults } from '../providers/provider-definition.js';
import { PROVIDERS } from '../providers/provider-registry.js';
import { queuesConfigSchema } from '../queues/queue-config.js';
import { checkReportSchedules, reportsConfigSchema } from '../reports/report-config.js';

const providerCommon = {
  id: idSchema,
  name: z.string().min(1),
  /** How often the service asks the provider for its calls. */
  syncIntervalMs: z.number().int().min(100).max(60_000).default(1000),
  /**
   * Lists start at least this far apart, whatever asks for one (a placed call, a pushed update
   * about a call no list showed yet): the provider's rate limit. The provider type's own floor by default.
   */
  minListIntervalMs: z.number().int().min(0).max(600_000).optional(),
  /** How long one provider request may take before it counts as a timeout. */
  requestTimeoutMs: z.number().int().min(100).max(120_000).default(5000),
  /** How old the last good snapshot may grow, while the provider fails, before lists answer 503. */
  staleAfterMs: z.number().int().min(1000).max(3_600_000).default(30_000),
  /** How long an ended call stays in the live list after its end (0: it leaves at once; the journal keeps it anyway). */
  keepEndedMs: z.number().int().min(0).max(86_400_000).default(120_000),
  /** How often the agent board asks the provider for its subscribers (who is registered, who is active). */
  presenceIntervalMs: z.number().int().min(500).max(300_000).default(5000),
  /** Its queues: how calls reach each, its members and its own service-level target (`queues/queue-config.ts`). */
  queues: queuesConfigSchema,
};

/** One provider type's config: the common fields with the type's own defaults, its `type`, and its `settings`. */
type ProviderConfigSchemaOf<D extends AnyProviderDefinition> = z.ZodObject<
  typeof providerCommon & { type: z.ZodLiteral<D['type']>; settings: D['settings'] },
  z.core.$strict
>;
type ProviderConfigSchemas<Ds extends readonly AnyProviderDefinition[]> = {
  -readonly [I in keyof Ds]: Ds[I] extends AnyProviderDefinition ? ProviderConfigSchemaOf<Ds[I]> : never;
};

const providerConfigSchemaOf = <D extends AnyProviderDefinition>({ type, settings, defaults = {} }: D) =>
  z.strictObject({
    ...providerCommon,
    ...Object.fromEntries(
      Object.entries(defaults).map(([field, value]) => [field, providerCommon[field as keyof ProviderDefaults].unwrap().default(value)]),
    ),
    type: z.literal(type),
    settings,
  }) as unknown as ProviderConfigSchemaOf<D>;

export const providerConfigSchema = z.discriminatedUnion(
  'type',
  PROVIDERS.map(providerConfigSchemaOf) as unknown as ProviderConfigSchemas<typeof PROVIDERS>,
);
export type ProviderConfig = z.infer<typeof providerConfigSchema>;

/** An agent's subscribers: at least one, each a valid ID, none twice. */
const subscriberIDsSchema = z
  .array(z.string().regex(ID_PATTERN, `must be a subscriber ID: ${ID_RULE}`))
  .min(1, 'is empty: list the subscribers this token places calls as, or leave subscriberIDs out so it may place calls as any subscriber')
  .superRefine((ids, ctx) =>
    ids.forEach((id, i) => {
      if (ids.indexOf(id) !== i) ctx.addIssue({ code: 'custom', path: [i], message: `subscriber "${id}" is listed twice` });
    }),
  );

const BACKFILL_DEFAULTS = { days: 7, maxCalls: 500_000 };

/** A provider first seen with an empty journal gets its past filled in, when it can tell it (the simulator can). */
const backfillSchema = z.strictObject({
  /** How far back; 0 turns the backfill off. Never past `retentionDays`. */
  days: z.number().min(0).max(31).default(BACKFILL_DEFAULTS.days),
  /** Calls one provider's backfill may write: past it the backfilled span is shorter (the newest hour is always filled). */
  maxCalls: z.number().int().min(10_000).max(100_000_000).default(BACKFILL_DEFAULTS.maxCalls),
});

const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/, 'must be a SHA-256 digest in lowercase hex (64 characters)');

export const tokenConfigSchema = z
  .strictObject({
    /** A label for logs and metrics; never the secret. */
    name: z.string().min(1),
    sha256: sha256Hex.optional(),
    /** A plain token, for local demos only; prefer `sha256`. */
    token: z.string().min(16, 'must be at least 16 characters').optional(),
    /** Application IDs this token may see, or "*" for all of the account's. */
    applications: z.union([z.literal('*'), z.array(idSchema).min(1)]),
    permissions: z.array(permissionSchema).min(1),
    /**
     * An agent's own token: the subscribers it places calls as. Without it the token may place
     * calls as any subscriber (a supervisor's or an integration's token).
     */
    subscriberIDs: subscriberIDsSchema.optional(),
  })
  .refine((t) => (t.sha256 === undefined) !== (t.token === undefined), {
    message: 'give exactly one of "sha256" or "token"',
  });
export type TokenConfig = z.infer<typeof tokenConfigSchema>;

export const applicationConfigSchema = z.strictObject({
  id: idSchema,
  name: z.string().min(1),
  providers: z.array(providerConfigSchema).min(1),
});

export const accountConfigSchema = z.strictObject({
  id: idSchema,
  name: z.string().min(1),
  applications: z.array(applicationConfigSchema).min(1),
  tokens: z.array(tokenConfigSchema),
});
export type AccountConfig = z.infer<typeof accountConfigSchema>;

/**
 * /metrics names every account, application and provider: it is served only with a token of its
 * own (`tokenSha256`, or a plain `token` for local demos), and off without one.
 */
const metricsSchema = z
  .strictObject({
    /** Defaults to on when a token is given; `false` turns /metrics off all the same. */
    enabled: z.boolean().optional(),
    /** SHA-256 (hex) of the bearer token /metrics requires. */
    tokenSha256: sha256Hex.optional(),
    /** A plain token, for local demos only; prefer `tokenSha256`. */
    token: z.string().min(16, 'must be at least 16 characters').optional(),
  })
  .refine((m) => !(m.tokenSha256 !== undefined && m.token !== undefined), { message: 'give at most one of "tokenSha256" or "token"' })
  .refine((m) => m.enabled !== true || m.tokenSha256 !== undefined || m.token !== undefined, {
    message:
      '/metrics lists every account, application and provider, so it needs a token of its own: add "tokenSha256" (the SHA-256 hex of a scraper token)',
  })
  .default({});

export const LIMIT_DEFAULTS = {
  requestTimeoutMs: 30_000,
  headersTimeoutMs: 10_000,
  keepAliveTimeoutMs: 10_000,
  connections: 2_000,
  connectionsPerAddress: 256,
  requestsPerToken: 32,
  streams: 1_000,
  streamsPerToken: 8,
  heavyQueries: 64,
  heavyQueriesPerToken: 16,
  idempotencyKeysPerApplication: 200_000,
  failedAuthPerMinute: 30,
  webhookRequestsPerMinute: 12_000,
} as const;

/** What one client may hold of the service at once, and how long a request may take to arrive. */
const limitsSchema = z
  .strictObject({
    /** The whole request (headers and body) must have arrived within this. */
    requestTimeoutMs: z.number().int().min(1000).max(600_000).default(LIMIT_DEFAULTS.requestTimeoutMs),
    /** The request's headers must have arrived within this; at most `requestTimeoutMs`. */
    headersTimeoutMs: z.number().int().min(1000).max(600_000).default(LIMIT_DEFAULTS.headersTimeoutMs),
    /** An idle keep-alive connection is closed after this. */
    keepAliveTimeoutMs: z.number().int().min(1000).max(600_000).default(LIMIT_DEFAULTS.keepAliveTimeoutMs),
    /** Open connections in total; past it a new one is answered 503 and closed. */
    connections: z.number().int().min(1).max(1_000_000).default(LIMIT_DEFAULTS.connections),
    /** Open connections from one source address (0: no cap, e.g. behind a reverse proxy). */
    connectionsPerAddress: z.number().int().min(0).max(1_000_000).default(LIMIT_DEFAULTS.connectionsPerAddress),
    /** Requests in flight per token (streams are counted apart). */
    requestsPerToken: z.number().int().min(1).max(100_000).default(LIMIT_DEFAULTS.requestsPerToken),
    /** Long-lived streams open in total, and per token. */
    streams: z.number().int().min(1).max(1_000_000).default(LIMIT_DEFAULTS.streams),
    streamsPerToken: z.number().int().min(1).max(100_000).default(LIMIT_DEFAULTS.streamsPerToken),
    /** Heavy reads (window lists, analytics) running or queued in total, and per token. */
    heavyQueries: z.number().int().min(1).max(100_000).default(LIMIT_DEFAULTS.heavyQueries),
    heavyQueriesPerToken: z.number().int().min(1).max(10_000).default(LIMIT_DEFAULTS.heavyQueriesPerToken),
    /** Idempotency-Keys one application may hold within their 24 hours. */
    idempotencyKeysPerApplication: z.number().int().min(1).max(100_000_000).default(LIMIT_DEFAULTS.idempotencyKeysPerApplication),
    /** Requests with a missing or wrong token allowed a minute from one source address (and unsigned webhook requests). */
    failedAuthPerMinute: z.number().int().min(1).max(1_000_000).default(LIMIT_DEFAULTS.failedAuthPerMinute),
    /** Signed requests one provider's webhook takes a minute (a status callback per leg and step: a large center sends thousands). */
    webhookRequestsPerMinute: z.number().int().min(1).max(10_000_000).default(LIMIT_DEFAULTS.webhookRequestsPerMinute),
  })
  .refine((l) => l.headersTimeoutMs <= l.requestTimeoutMs, { path: ['headersTimeoutMs'], message: 'must be at most requestTimeoutMs' })
  .default(LIMIT_DEFAULTS);
export type ServiceLimits = z.infer<typeof limitsSchema>;

export const serviceConfigSchema = z
  .strictObject({
    accounts: z.array(accountConfigSchema).min(1),
    /** Origins (scheme://host[:port]) of dashboards served elsewhere that may call this service. */
    corsOrigins: z.array(z.url({ error: 'must be an origin such as https://board.example.com' })).default([]),
    /** The center's time zone (IANA): the agent board's figures for "today" start at its midnight. */
    timeZone: z
      .string()
      .refine(isTimeZone, { error: 'must be an IANA time zone such as "Europe/Berlin" or "UTC"' })
      .default('UTC'),
    /** Requests a minute allowed per token. */
    rateLimitPerMinute: z.number().int().min(1).max(1_000_000).default(1200),
    history: z
      .strictObject({
        /** Days the call journal keeps a call after it ended; older ones are pruned in the background. */
        retentionDays: z.number().int().min(1).max(3650).default(90),
        backfill: backfillSchema.default(BACKFILL_DEFAULTS),
      })
      .default({ retentionDays: 90, backfill: BACKFILL_DEFAULTS }),
    metrics: metricsSchema,
    limits: limitsSchema,
    /**
     * Several instances of the service share one PostgreSQL (DATABASE_URL): one leads each
     * provider's sync and the others serve what it committed. `instances` is how many run behind
     * the balancer; per-token rates are enforced per instance, at `rateLimitPerMinute / instances` each.
     */
    cluster: z.strictObject({ instances: z.number().int().min(1).max(64) }).optional(),
    /** Reports sent by email on a schedule (`reports/report-config.ts`); none without it. */
    reports: reportsConfigSchema.optional(),
    /** People signing in with the company's identity provider (`auth/auth-config.ts`); only API tokens without it. */
    auth: authConfigSchema.optional(),
  })
  .superRefine((config, ctx) => {
    if (config.reports) checkReportSchedules(config.reports, config, ctx);
    if (config.auth) checkAuthConfig(config.auth, config.accounts, ctx);
    const seen = (label: string, ids: string[], path: (string | number)[]) => {
      const dup = ids.find((id, i) => ids.indexOf(id) !== i);
      if (dup !== undefined) ctx.addIssue({ code: 'custom', path, message: `duplicate ${label} id "${dup}"` });
    };
    seen('account', config.accounts.map((a) => a.id), ['accounts']);
    config.accounts.forEach((account, a) => {
      seen('application', account.applications.map((app) => app.id), ['accounts', a, 'applications']);
      account.applications.forEach((app, p) =>
        seen('provider', app.providers.map((pr) => pr.id), ['accounts', a, 'applications', p, 'providers']),
      );
      seen('token name', account.tokens.map((t) => t.name), ['accounts', a, 'tokens']);
      const appIDs = new Set(account.applications.map((app) => app.id));
      account.tokens.forEach((token, t) => {
        if (token.applications === '*') return;
        token.applications.forEach((id, i) => {
          if (!appIDs.has(id))
            ctx.addIssue({
              code: 'custom',
              path: ['accounts', a, 'tokens', t, 'applications', i],
              message: `no application "${id}" in account "${account.id}"`,
            });
        });
      });
    });
  });
export type ServiceConfig = z.infer<typeof serviceConfigSchema>;
export type ServiceConfigInput = z.input<typeof serviceConfigSchema>;
