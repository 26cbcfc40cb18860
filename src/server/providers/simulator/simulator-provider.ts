/** The simulator provider type: its settings in the config, its own defaults, and how its phone system is built from them. */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { PhoneSystem } from '../phone-system.js';
import { defineProvider } from '../provider-definition.js';
import { createPhoneSystemSimulator } from './phone-system-simulator.js';
import { createRemoteSimulator } from './remote/remote-simulator.js';

/** Settings of a center the service runs itself; with `url` the center runs in the simulator process, set by these flags. */
const IN_PROCESS_SETTINGS = {
  seed: '--seed',
  dialMode: '--dial-mode',
  agents: '--agents',
  traffic: '--traffic',
  speed: '--speed',
  keepEndedMs: '--keep-ended-ms',
  emailDomain: '--email-domain',
} as const;

const simulatorSettingsSchema = z
  .strictObject({
    /** A simulator process of its own (`npm run simulator`) to connect to, instead of a center run in this service. */
    url: z
      .url({ protocol: /^https?$/, error: 'must be the http URL the simulator process printed, such as http://127.0.0.1:8090' })
      .refine((url) => !/[?#]/.test(url), 'must be the simulator\'s base URL, with no query or fragment')
      .optional(),
    seed: z.number().int().optional(),
    /** Two-step (the default) rings the agent first; direct dials the remote number at once. */
    dialMode: z.enum(['two-step', 'direct']).optional(),
    agents: z.number().int().min(1).max(50_000).optional(),
    traffic: z.number().positive().max(100).optional(),
    speed: z.number().positive().max(1000).optional(),
    keepEndedMs: z.number().int().nonnegative().max(86_400_000).optional(),
    emailDomain: z.string().optional(),
    /** Enables the simulator's fault-injection route, for outage drills and end-to-end tests. */
    control: z.boolean().default(false),
  })
  .superRefine((settings, ctx) => {
    if (settings.url === undefined) return;
    for (const [setting, flag] of Object.entries(IN_PROCESS_SETTINGS))
      if (settings[setting as keyof typeof IN_PROCESS_SETTINGS] !== undefined)
        ctx.addIssue({
          code: 'custom',
          path: [setting],
          message: `is set on the simulator process (its ${flag} flag), not here: with "url" this provider connects to the center that process runs`,
        });
  });
export type SimulatorSettings = z.output<typeof simulatorSettingsSchema>;

/** A stable seed per provider, so two providers without a configured seed never share traffic. */
const seedFrom = (text: string) => createHash('sha256').update(text).digest().readUInt32BE(0);

/** The same phone system without its drill controls, for configs that do not enable them. */
const withoutControl = ({ control: _control, ...phoneSystem }: PhoneSystem): PhoneSystem => phoneSystem;

export const simulatorProvider = defineProvider({
  type: 'simulator',
  settings: simulatorSettingsSchema.default({ control: false }),
  // The simulator's subscribers cost nothing to list: its board follows registrations closely.
  defaults: { presenceIntervalMs: 2000 },
  create: ({ url, control, ...center }, { provider, scope, clock }) => {
    const simulator = url
      ? createRemoteSimulator({ url, requestTimeoutMs: provider.requestTimeoutMs })
      : createPhoneSystemSimulator({
          clock,
          name: provider.id,
          ...center,
          seed: center.seed ?? seedFrom(`${scope.accountID}/${scope.applicationID}/${scope.providerID}`),
          queues: provider.queues ?? [],
        });
    return control ? simulator : withoutControl(simulator);
  },
});
