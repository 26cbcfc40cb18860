/**
 * Browsers as Kamailio's phones: the time-limited credentials Kamailio's auth_ephemeral checks (a
 * secret shared with the service, so no SIP password reaches a browser), and a supervisor's silent
 * listening, which the service asks of rtpengine itself (`subscribe request`, `subscribe answer`,
 * `unsubscribe`: Kamailio 5.6's script cannot send them).
 */
import { createHmac } from 'node:crypto';
import { z } from 'zod';
import { iceServerSchema, type IceServer, type SoftphoneCredentials } from '../../../contract/softphone.js';
import { secretSchema } from '../../settings/secret.js';
import { CallNotListenable, ProviderFailure, SubscriberRejection, type CallListening, type ProviderCall, type SoftphoneAccess } from '../phone-system.js';
import { dialogToListen } from './dialog-calls.js';
import type { JsonRpcCall } from './json-rpc-client.js';
import { NgClient, RtpengineError, sdpOf, WEBRTC_LISTENER_FLAGS } from './rtpengine/ng-client.js';
import { sipURI } from './sip-uri.js';
import type { SubscriberDirectory } from './subscriber-directory.js';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

export const webrtcSettingsSchema = z.strictObject({
  /** Where browsers reach Kamailio's SIP over WebSocket: wss, or ws on this machine only. */
  websocketURL: z
    .url({ protocol: /^wss?$/, error: 'must be a ws(s) URL such as wss://sip.example.com:8443/' })
    .refine((url) => url.startsWith('wss:') || LOOPBACK_HOSTS.has(new URL(url).hostname), {
      message: 'must be wss: a browser sends its SIP credentials over it (plain ws only to 127.0.0.1 or localhost)',
    }),
  /** The secret of Kamailio's auth_ephemeral (`modparam("auth_ephemeral", "secret", …)`). */
  sharedSecret: secretSchema,
  /** How long credentials stay good; the dashboard asks for new ones before then. */
  credentialTTLSeconds: z.number().int().min(60).max(86_400).default(8 * 3600),
  /** STUN and TURN servers for the browsers (a TURN relay where they sit behind NAT). */
  iceServers: z.array(iceServerSchema).default([]),
  /** rtpengine's ng control port, for silent listening; without it, calls cannot be listened to. */
  rtpengine: z
    .strictObject({
      host: z.string().min(1).default('127.0.0.1'),
      port: z.number().int().min(1).max(65_535),
    })
    .optional(),
});
export type WebrtcSettings = z.output<typeof webrtcSettingsSchema>;

/**
 * auth_ephemeral's scheme (username_format 1): the user is `<expiry in Unix seconds>:<SIP user>`, the
 * password base64(HMAC-SHA1(secret, user)). Kamailio recomputes it and checks the expiry and that the
 * SIP user is the From's.
 */
export const ephemeralPassword = (secret: string, user: string) => createHmac('sha1', secret).update(user).digest('base64');

export const createSoftphoneAccess = (settings: WebrtcSettings, directory: SubscriberDirectory, sipDomain: string): SoftphoneAccess => ({
  credentials: (providerSubscriberID, now): SoftphoneCredentials => {
    const entry = directory.bySubscriberID(providerSubscriberID);
    if (!entry) throw new SubscriberRejection('subscriber_not_found', `No subscriber "${providerSubscriberID}" in this Kamailio's directory.`);
    if (!entry.active) throw new SubscriberRejection('subscriber_inactive', `Subscriber "${providerSubscriberID}" is not active.`);
    const expires = Math.floor(now / 1000) + settings.credentialTTLSeconds;
    const authorizationUser = `${expires}:${entry.sipUser}`;
    return {
      websocketURL: settings.websocketURL,
      sipURI: sipURI(entry.sipUser, sipDomain),
      authorizationUser,
      password: ephemeralPassword(settings.sharedSecret.reveal(), authorizationUser),
      displayName: `${entry.firstName} ${entry.lastName}`,
      expiresAt: new Date(expires * 1000).toISOString(),
      iceServers: settings.iceServers,
    };
  },
});

/**
 * The listener's offer with one media ID per media section: rtpengine copies each party's own `mid`,
 * and two parties that both called theirs "0" (two browsers, say) make an offer a browser refuses
 * ("Duplicate a=mid value"). rtpengine matches the answer's sections by their order.
 */
export const uniqueMids = (sdp: string): string => {
  let section = -1;
  return sdp
    .split('\r\n')
    .filter((line) => !line.startsWith('a=group:BUNDLE'))
    .map((line) => {
      if (line.startsWith('m=')) section += 1;
      return line.startsWith('a=mid:') ? `a=mid:${section}` : line;
    })
    .join('\r\n');
};

/** rtpengine's to-tags are its own random hex; a listenID is one of them. */
const LISTEN_ID = /^[0-9a-f]{16,128}$/;

/** What rtpengine says when the call's media session is gone: the call ended under the listener. */
const GONE = /unknown call-id|unknown call|to-tag not found/i;

export const createCallListening = (
  rtpengine: NonNullable<WebrtcSettings['rtpengine']>,
  iceServers: IceServer[],
  rpc: JsonRpcCall,
): CallListening & { close(): void } => {
  const ng = new NgClient({ host: rtpengine.host, port: rtpengine.port, attemptTimeoutMs: 500, attempts: 3 });

  /** rtpengine's failures as the provider's: unreachable, or refusing with its reason. */
  const ask = async (command: string, params: Parameters<NgClient['request']>[1]) => {
    try {
      return await ng.request(command, params);
    } catch (error) {
      if (!(error instanceof RtpengineError)) throw error;
      if (/^no answer from/.test(error.reason)) throw new ProviderFailure('unavailable', `the media relay (rtpengine at ${rtpengine.host}:${rtpengine.port}) did not answer`);
      throw error;
    }
  };

  const mediaOf = async (call: ProviderCall, signal: AbortSignal) => dialogToListen(await rpc('dlg.list', [], signal), call.callID);

  const checkedID = (listenID: string) => {
    if (!LISTEN_ID.test(listenID)) throw new CallNotListenable('no_listener', `"${listenID.slice(0, 80)}" is not a listener of this call.`);
    return listenID;
  };

  return {
    start: async (call, signal) => {
      const media = await mediaOf(call, signal);
      let answer;
      try {
        answer = await ask('subscribe request', { 'call-id': media.sipCallID, 'from-tags': media.tags, ...WEBRTC_LISTENER_FLAGS, SDES: ['off'] });
      } catch (error) {
        if (error instanceof RtpengineError) throw new CallNotListenable('refused', `The media relay refused to fork call "${call.callID}": ${error.reason}.`);
        throw error;
      }
      const listenID = answer['to-tag'];
      if (typeof listenID !== 'string') throw new ProviderFailure('error', 'rtpengine answered subscribe request without a to-tag');
      return { listenID, sdp: uniqueMids(sdpOf('subscribe request', answer)), iceServers };
    },
    answer: async (call, listenID, sdp, signal) => {
      const media = await mediaOf(call, signal);
      try {
        await ask('subscribe answer', { 'call-id': media.sipCallID, 'to-tag': checkedID(listenID), sdp });
      } catch (error) {
        if (!(error instanceof RtpengineError)) throw error;
        if (GONE.test(error.reason)) throw new CallNotListenable('no_listener', `Call "${call.callID}" has no listener "${listenID}".`);
        throw new CallNotListenable('refused', `The media relay refused the listener's answer: ${error.reason}.`);
      }
    },
    stop: async (call, listenID, signal) => {
      checkedID(listenID);
      let media;
      try {
        media = await mediaOf(call, signal);
      } catch (error) {
        // The call ended: its media session, listeners and all, went with it.
        if (error instanceof CallNotListenable && error.reason === 'ended') return;
        throw error;
      }
      try {
        await ask('unsubscribe', { 'call-id': media.sipCallID, 'to-tag': listenID });
      } catch (error) {
        if (!(error instanceof RtpengineError)) throw error;
        if (GONE.test(error.reason)) return;
        throw new CallNotListenable('refused', `The media relay refused to stop the listener: ${error.reason}.`);
      }
    },
    close: () => ng.close(),
  };
};
