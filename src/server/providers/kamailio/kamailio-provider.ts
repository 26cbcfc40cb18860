/** The Kamailio provider type: its settings in the config, and how its phone system is built from them. */
import { z } from 'zod';
import { digits, flagDuplicates, idSchema } from '../../settings/field-rules.js';
import { defineProvider } from '../provider-definition.js';
import { webrtcSettingsSchema } from './browser-phones.js';
import { createKamailioPhoneSystem } from './kamailio-phone-system.js';

const directoryEntrySchema = z.strictObject({
  subscriberID: idSchema,
  /** The user part of the subscriber's SIP address (sip:<sipUser>@<sipDomain>). */
  sipUser: z.string().regex(/^[A-Za-z0-9._~-]{1,64}$/, 'must be 1 to 64 letters, digits, ".", "_", "~" or "-"'),
  firstName: z.string().min(1),
  lastName: z.string().min(1),
  email: z.string(),
  extension: digits(1, 10),
  number: digits(3, 15),
  active: z.boolean().default(true),
});

const kamailioSettingsSchema = z
  .strictObject({
    /** Kamailio's JSON-RPC endpoint (jsonrpcs over xhttp). */
    rpcURL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL such as http://127.0.0.1:5071/RPC' }),
    /** Host[:port] of the subscribers' and remote parties' SIP URIs. */
    sipDomain: z.string().regex(/^[A-Za-z0-9.-]+(:[0-9]{1,5})?$/, 'must be a host with an optional port, such as 127.0.0.1:5060'),
    directory: z.array(directoryEntrySchema).min(1),
    /** Browsers as the subscribers' phones (Kamailio's WebSocket and auth_ephemeral), and silent listening (rtpengine). */
    webrtc: webrtcSettingsSchema.optional(),
  })
  .superRefine((settings, ctx) => flagDuplicates(ctx, 'directory', settings.directory, ['subscriberID', 'sipUser']));
export type KamailioSettings = z.output<typeof kamailioSettingsSchema>;

export const kamailioProvider = defineProvider({
  type: 'kamailio',
  settings: kamailioSettingsSchema,
  create: (settings, { clock, provider }) => createKamailioPhoneSystem({ ...settings, clock, queues: provider.queues }),
});
