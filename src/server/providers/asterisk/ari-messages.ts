/**
 * What Asterisk's REST Interface (ARI) sends, as the service reads it: the Channel, Bridge and
 * Endpoint models and the events it takes calls from, with the fields Asterisk's published
 * description marks required. Fields the service does not read pass through unchecked, so a newer
 * Asterisk that adds fields is read the same.
 */
import { z } from 'zod';

/** ARI's `Date`: ISO 8601 with milliseconds and the server's local offset, written without a colon ("2026-11-26T11:04:19.123+0100"). */
const ARI_DATE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?(Z|[+-]\d{2}:?\d{2})$/;

/**
 * Epoch milliseconds of an ARI date, read field by field: `Date.parse` accepts "+0100" only by
 * leniency, which the ECMAScript date format does not promise. Undefined for any other text.
 */
export const parseAriDate = (text: string): number | undefined => {
  const match = ARI_DATE.exec(text);
  if (!match) return undefined;
  const [, year, month, day, hour, minute, second, fraction = '0', zone = 'Z'] = match;
  const ms = Math.round(Number(`0.${fraction}`) * 1000);
  const utc = Date.UTC(Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute), Number(second), ms);
  if (zone === 'Z') return utc;
  const sign = zone.startsWith('-') ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  const offsetMinutes = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4));
  return utc - sign * offsetMinutes * 60_000;
};

const ariDate = z.string().refine((text) => parseAriDate(text) !== undefined, 'must be an ARI date such as 2026-11-26T11:04:19.123+0100');

const callerIDSchema = z.looseObject({ name: z.string(), number: z.string() });

export const channelSchema = z.looseObject({
  id: z.string().min(1),
  name: z.string(),
  /**
   * Any text: the published description lists Down, Rsrved, OffHook, Dialing, Ring, Ringing, Up,
   * Busy, Dialing Offhook, Pre-ring and Unknown, and Asterisk itself also writes "Rsrvd" and "Mute".
   * Only Down, Ring, Ringing and Up mean anything to the service.
   */
  state: z.string(),
  caller: callerIDSchema,
  connected: callerIDSchema,
  accountcode: z.string(),
  /** `app_name` / `app_data` since Asterisk 13.27 and 16.4. */
  dialplan: z.looseObject({ context: z.string(), exten: z.string(), priority: z.number(), app_name: z.string().optional(), app_data: z.string().optional() }),
  creationtime: ariDate,
});
export type AriChannel = z.infer<typeof channelSchema>;

export const bridgeSchema = z.looseObject({
  id: z.string().min(1),
  technology: z.string(),
  bridge_type: z.string(),
  bridge_class: z.string(),
  channels: z.array(z.string()),
});
export type AriBridge = z.infer<typeof bridgeSchema>;

export const ENDPOINT_STATES = ['unknown', 'offline', 'online'] as const;

export const endpointSchema = z.looseObject({
  technology: z.string().min(1),
  resource: z.string().min(1),
  state: z.enum(ENDPOINT_STATES).optional(),
  channel_ids: z.array(z.string()),
});
export type AriEndpoint = z.infer<typeof endpointSchema>;

const eventBase = { application: z.string(), timestamp: ariDate };

/** The events calls are taken from; any other type is read as `{ type }` and ignored. */
export const eventSchema = z.discriminatedUnion('type', [
  z.looseObject({ ...eventBase, type: z.literal('ChannelCreated'), channel: channelSchema }),
  z.looseObject({ ...eventBase, type: z.literal('ChannelStateChange'), channel: channelSchema }),
  z.looseObject({ ...eventBase, type: z.literal('ChannelDialplan'), channel: channelSchema, dialplan_app: z.string(), dialplan_app_data: z.string() }),
  z.looseObject({ ...eventBase, type: z.literal('ChannelConnectedLine'), channel: channelSchema }),
  z.looseObject({ ...eventBase, type: z.literal('ChannelCallerId'), channel: channelSchema }),
  z.looseObject({ ...eventBase, type: z.literal('ChannelHangupRequest'), channel: channelSchema, cause: z.number().int().optional() }),
  z.looseObject({ ...eventBase, type: z.literal('ChannelDestroyed'), channel: channelSchema, cause: z.number().int(), cause_txt: z.string() }),
  z.looseObject({
    ...eventBase,
    type: z.literal('Dial'),
    caller: channelSchema.optional(),
    peer: channelSchema,
    dialstring: z.string().optional(),
    dialstatus: z.string(),
  }),
  z.looseObject({ ...eventBase, type: z.literal('BridgeCreated'), bridge: bridgeSchema }),
  z.looseObject({ ...eventBase, type: z.literal('BridgeDestroyed'), bridge: bridgeSchema }),
  z.looseObject({ ...eventBase, type: z.literal('ChannelEnteredBridge'), bridge: bridgeSchema, channel: channelSchema.optional() }),
  z.looseObject({ ...eventBase, type: z.literal('ChannelLeftBridge'), bridge: bridgeSchema, channel: channelSchema }),
  z.looseObject({ ...eventBase, type: z.literal('StasisStart'), channel: channelSchema, args: z.array(z.string()) }),
  z.looseObject({ ...eventBase, type: z.literal('StasisEnd'), channel: channelSchema }),
  z.looseObject({ ...eventBase, type: z.literal('EndpointStateChange'), endpoint: endpointSchema }),
]);
export type AriEvent = z.infer<typeof eventSchema>;
export type AriEventType = AriEvent['type'];

const EVENT_TYPES = new Set<string>(eventSchema.options.map((option) => option.shape.type.value));

/** An event read off the socket: one the service takes calls from, or the type of one it ignores. */
export type ReadEvent = { taken: AriEvent } | { ignored: string };

/** Reads one WebSocket message; throws with the field at fault when a known event does not match the model. */
export const readEvent = (text: string): ReadEvent => {
  const json: unknown = JSON.parse(text);
  const type = typeof json === 'object' && json !== null && 'type' in json ? (json as { type: unknown }).type : undefined;
  if (typeof type !== 'string') throw new Error('an ARI event must be a JSON object with a "type"');
  if (!EVENT_TYPES.has(type)) return { ignored: type };
  const parsed = eventSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`ARI event ${type}: ${issue?.path.join('.') || '(event)'} ${issue?.message ?? 'is malformed'}`);
  }
  return { taken: parsed.data };
};
