/** The Twilio provider type: its settings in the config, its own defaults, and how its phone system is built from them. */
import { z } from 'zod';
import { digits, flagDuplicates, idSchema } from '../../settings/field-rules.js';
import { secretSchema } from '../../settings/secret.js';
import { defineProvider } from '../provider-definition.js';
import { createTwilioPhoneSystem } from './twilio-phone-system.js';

/** What Twilio dials to reach an agent: a Voice SDK client, a SIP address, or a phone number (digits). */
const twilioDeviceSchema = z
  .string()
  .regex(
    /^(client:[A-Za-z0-9_.-]{1,121}|sip:[^\s@<>"]+@[A-Za-z0-9.-]+(:[0-9]{1,5})?(;[^\s<>"]*)?|[0-9]{3,15})$/,
    'must be "client:NAME" (a Voice SDK identity), "sip:user@domain" or a phone number in digits',
  );

const twilioAgentSchema = z.strictObject({
  subscriberID: idSchema,
  firstName: z.string().min(1),
  lastName: z.string().min(1),
  email: z.string(),
  extension: digits(1, 10),
  /** The agent's own number, the caller ID of their calls in direct mode. */
  number: digits(3, 15),
  device: twilioDeviceSchema,
  active: z.boolean().default(true),
});

const twilioSettingsSchema = z
  .strictObject({
    accountSid: z.string().regex(/^AC[0-9a-fA-F]{32}$/, 'must be the account SID: "AC" and 32 hexadecimal digits'),
    authToken: secretSchema,
    /** Twilio's API; another base for tests, a double of it, or a regional edge. */
    apiBaseURL: z
      .url({ protocol: /^https?$/, error: 'must be an http(s) URL such as https://api.twilio.com' })
      .refine((url) => !/[?#]/.test(url), 'must be a base URL, with no query or fragment')
      .default('https://api.twilio.com'),
    /** The number calls come from: a Twilio number of the account or a verified caller ID, in digits. */
    callerID: digits(3, 15),
    /**
     * The service's address as Twilio reaches it: the status callbacks of the calls it places go to
     * `<webhookBaseURL>/v1/webhooks/twilio/...`, and their signatures are checked against it. Without
     * it calls are placed without callbacks and the service only lists.
     */
    webhookBaseURL: z
      .url({ protocol: /^https?$/, error: 'must be the https URL at which Twilio reaches this service, such as https://callboard.example.com' })
      .refine((url) => !/[?#]/.test(url), 'must be a base URL, with no query or fragment')
      .optional(),
    /** Two-step (the default) rings the agent's device first; direct dials the remote number with the agent's number as caller ID. */
    dialMode: z.enum(['two-step', 'direct']).default('two-step'),
    agents: z.array(twilioAgentSchema).min(1),
  })
  .superRefine((settings, ctx) => flagDuplicates(ctx, 'agents', settings.agents, ['subscriberID', 'device']));
export type TwilioSettings = z.output<typeof twilioSettingsSchema>;

export const twilioProvider = defineProvider({
  type: 'twilio',
  settings: twilioSettingsSchema,
  // Each list costs Twilio several requests, and status callbacks tell most changes at once: listed less often.
  defaults: { syncIntervalMs: 2000, minListIntervalMs: 1000 },
  create: ({ authToken, webhookBaseURL, ...settings }, { provider, clock, webhookPath }) =>
    createTwilioPhoneSystem({
      ...settings,
      authToken: authToken.reveal(),
      queues: provider.queues ?? [],
      clock,
      ...(webhookBaseURL ? { webhookBaseURL, webhookURL: `${webhookBaseURL.replace(/\/+$/, '')}${webhookPath()}` } : {}),
    }),
});
