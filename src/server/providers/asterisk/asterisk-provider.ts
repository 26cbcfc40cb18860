/** The Asterisk provider type: its settings in the config, its own defaults, and how its phone system is built from them. */
import { z } from 'zod';
import { digits, flagDuplicates, idSchema } from '../../settings/field-rules.js';
import { secretSchema } from '../../settings/secret.js';
import { defineProvider } from '../provider-definition.js';
import { createAsteriskPhoneSystem } from './asterisk-phone-system.js';

const asteriskAgentSchema = z.strictObject({
  subscriberID: idSchema,
  firstName: z.string().min(1),
  lastName: z.string().min(1),
  email: z.string(),
  extension: digits(1, 10),
  number: digits(3, 15),
  /** The agent's phone as Asterisk names its endpoint: technology/resource. */
  endpoint: z.string().regex(/^[A-Za-z][A-Za-z0-9_-]*\/[^\s/?#]+$/, 'must be an Asterisk endpoint "technology/resource", such as "PJSIP/101"'),
  active: z.boolean().default(true),
});

const asteriskSettingsSchema = z
  .strictObject({
    /** The base of Asterisk's HTTP server (http.conf); ARI is under /ari on it. */
    ariURL: z
      .url({ protocol: /^https?$/, error: 'must be the http(s) URL of Asterisk\'s HTTP server, such as http://pbx.example.com:8088' })
      .refine((url) => !/[?#]/.test(url), 'must be a base URL, with no query or fragment')
      .refine((url) => !/\/ari\/?$/.test(url), 'must be the HTTP server\'s base, without "/ari": the service adds it')
      .refine((url) => !/^[a-z]+:\/\/[^/]*@/i.test(url), 'must not hold a user or password: give them as "username" and "password"'),
    /** An ARI user of ari.conf. */
    username: z.string().min(1),
    password: secretSchema,
    /** The Stasis application the service registers as (its events socket). */
    app: z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, 'must be 1 to 64 letters, digits, ".", "_" or "-"').default('callboard'),
    /** The dialplan context a placed call continues in: two-step dials the remote number there, direct dials the agent's extension. */
    dialContext: z.string().regex(/^[A-Za-z0-9._-]{1,80}$/, 'must be a dialplan context name, such as "from-internal"'),
    /** Direct mode: the channel that dials the remote number first, "{number}" standing for its digits. */
    trunkEndpoint: z
      .string()
      .regex(/^[A-Za-z][A-Za-z0-9_-]*\/\S*\{number\}\S*$/, 'must be an endpoint with "{number}" in it, such as "PJSIP/{number}@trunk"')
      .optional(),
    /** Two-step (the default) rings the agent's phone first, then the dialplan dials the number; direct dials the number first. */
    dialMode: z.enum(['two-step', 'direct']).default('two-step'),
    agents: z.array(asteriskAgentSchema).min(1),
  })
  .superRefine((settings, ctx) => {
    if (settings.dialMode === 'direct' && settings.trunkEndpoint === undefined)
      ctx.addIssue({ code: 'custom', path: ['trunkEndpoint'], message: 'is required with "dialMode": "direct": the channel that dials the remote number, such as "PJSIP/{number}@trunk"' });
    flagDuplicates(ctx, 'agents', settings.agents, ['subscriberID', 'endpoint'], (value, key) => (key === 'endpoint' ? value.toLowerCase() : value));
  });
export type AsteriskSettings = z.output<typeof asteriskSettingsSchema>;

export const asteriskProvider = defineProvider({
  type: 'asterisk',
  settings: asteriskSettingsSchema,
  // Asterisk pushes every change over its event socket; lists reconcile, and poll only while the socket is down.
  defaults: { syncIntervalMs: 2000 },
  create: ({ password, ...settings }, { provider, clock, log }) =>
    createAsteriskPhoneSystem({
      ...settings,
      password: password.reveal(),
      keepEndedMs: provider.keepEndedMs,
      queues: provider.queues ?? [],
      clock,
      ...(log ? { log } : {}),
    }),
});
