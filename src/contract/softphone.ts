/**
 * The browser as a phone: the time-limited SIP credentials the service issues to a subscriber's
 * browser (WebRTC over the phone system's WebSocket), and a supervisor's silent listening to a call.
 */
import { z } from 'zod';

/** A STUN or TURN server, as RTCPeerConnection takes it. */
export const iceServerSchema = z.object({
  urls: z.union([z.string(), z.array(z.string())]),
  username: z.string().optional(),
  credential: z.string().optional(),
});
export type IceServer = z.infer<typeof iceServerSchema>;

export const softphoneCredentialsRequestSchema = z.strictObject(
  {
    providerSubscriberID: z.string({ error: 'is required' }).min(1, 'must not be empty').max(200, 'must be at most 200 characters'),
  },
  { error: (issue) => (issue.code === 'invalid_type' ? 'the body must be a JSON object' : undefined) },
).meta({ id: 'SoftphoneCredentialsRequest' });
export type SoftphoneCredentialsRequest = z.infer<typeof softphoneCredentialsRequestSchema>;

export const softphoneCredentialsSchema = z
  .object({
    websocketURL: z.string().meta({ description: "The phone system's SIP-over-WebSocket address (ws: on this machine only, wss: otherwise)." }),
    sipURI: z.string().meta({ description: 'The address the browser registers, e.g. `sip:1001@pbx.example.com`.' }),
    authorizationUser: z.string().meta({ description: 'The SIP digest user: the expiry (Unix seconds) and the SIP user, `1767225600:1001`.' }),
    password: z.string().meta({ description: 'The SIP digest password, good until `expiresAt` only; the phone system checks it with a secret it shares with the service.' }),
    displayName: z.string(),
    expiresAt: z.string().meta({ description: 'When the credentials stop working (ISO 8601): ask for new ones before then.' }),
    iceServers: z.array(iceServerSchema),
  })
  .meta({ id: 'SoftphoneCredentials' });
export type SoftphoneCredentials = z.infer<typeof softphoneCredentialsSchema>;

/** A silent listener's start: rtpengine's offer for the browser, both parties' audio, send-only. */
export const listenOfferSchema = z
  .object({
    listenID: z.string(),
    callID: z.string(),
    sdp: z.string().meta({ description: 'The SDP offer the listening browser answers (two send-only audio streams, ICE and DTLS-SRTP).' }),
    iceServers: z.array(iceServerSchema),
  })
  .meta({ id: 'ListenOffer' });
export type ListenOffer = z.infer<typeof listenOfferSchema>;

export const listenAnswerRequestSchema = z.strictObject(
  {
    sdp: z
      .string({ error: 'is required' })
      .min(1, 'must not be empty')
      .max(65_536, 'must be at most 65536 characters')
      .refine((sdp) => sdp.startsWith('v=0'), 'must be an SDP answer (starting "v=0")'),
  },
  { error: (issue) => (issue.code === 'invalid_type' ? 'the body must be a JSON object' : undefined) },
).meta({ id: 'ListenAnswerRequest' });
export type ListenAnswerRequest = z.infer<typeof listenAnswerRequestSchema>;
