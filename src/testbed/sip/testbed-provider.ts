/** The service's provider config for a running test bed, and a directory of made-up agents for its phones. */
import type { z } from 'zod';
import type { queueConfigSchema } from '../../server/queues/queue-config.js';
import type { SipTestbed } from './sip-testbed.js';

export interface AgentSpec {
  subscriberID: string;
  sipUser: string;
  firstName: string;
  lastName: string;
  extension: string;
  active?: boolean;
}

export const directoryOf = (agents: readonly AgentSpec[]) =>
  agents.map(({ active = true, ...agent }) => ({
    ...agent,
    email: `${agent.firstName}.${agent.lastName}@example.com`.toLowerCase(),
    number: `1555010${agent.extension.padStart(4, '0')}`,
    active,
  }));

export interface ProviderOptions {
  id?: string;
  /** How long the service lists an ended call (the service's default of 2 min when left out). */
  keepEndedMs?: number;
  /** The provider's queues, as in the config (none when left out). */
  queues?: readonly z.input<typeof queueConfigSchema>[];
}

/** Browser phones and listening, where the test bed runs its WebSocket and rtpengine. */
const webrtcSettingsOf = ({ webrtc }: Pick<SipTestbed, 'webrtc'>) =>
  webrtc ? { webrtc: { websocketURL: webrtc.websocketURL, sharedSecret: webrtc.sharedSecret, rtpengine: { port: webrtc.rtpengineNgPort } } } : {};

export const kamailioProviderConfig = (bed: Pick<SipTestbed, 'rpcURL' | 'sipDomain' | 'webrtc'>, agents: readonly AgentSpec[], { id = 'kamailio', keepEndedMs, queues }: ProviderOptions = {}) => ({
  id,
  name: 'Kamailio test bed',
  type: 'kamailio' as const,
  syncIntervalMs: 1000,
  // Registrations read every second: a phone that signs off shows on the board within one.
  presenceIntervalMs: 1000,
  requestTimeoutMs: 2000,
  staleAfterMs: 3000,
  ...(keepEndedMs === undefined ? {} : { keepEndedMs }),
  ...(queues === undefined ? {} : { queues }),
  settings: { rpcURL: bed.rpcURL, sipDomain: bed.sipDomain, directory: directoryOf(agents), ...webrtcSettingsOf(bed) },
});
