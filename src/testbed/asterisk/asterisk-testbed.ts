/** An Asterisk provider's config for the double of ARI, with a few made-up agents, for tests and demos. */
import type { z } from 'zod';
import type { Clock } from '../../server/clock.js';
import type { QueueConfig, queueConfigSchema } from '../../server/queues/queue-config.js';
import { createAsteriskPhoneSystem } from '../../server/providers/asterisk/asterisk-phone-system.js';
import type { AsteriskAgent } from '../../server/providers/asterisk/conversations.js';

export const ARI_USER = 'callboard';
export const ARI_PASSWORD = 'double-ari-password-0123456789';
export const DIAL_CONTEXT = 'from-internal';
export const TRUNK_ENDPOINT = 'PJSIP/{number}@trunk';

export interface AsteriskAgentSpec {
  subscriberID: string;
  firstName: string;
  lastName: string;
  extension: string;
}

export const TEST_AGENTS: readonly AsteriskAgentSpec[] = [
  { subscriberID: 'agt-101', firstName: 'Ada', lastName: 'Lovelace', extension: '101' },
  { subscriberID: 'agt-102', firstName: 'Max', lastName: 'Planck', extension: '102' },
  { subscriberID: 'agt-103', firstName: 'Lin', lastName: 'Clark', extension: '103' },
];

export const endpointOf = (agent: Pick<AsteriskAgentSpec, 'extension'>) => `PJSIP/${agent.extension}`;

export const agentsConfig = (agents: readonly AsteriskAgentSpec[]) =>
  agents.map((agent) => ({
    ...agent,
    email: `${agent.firstName}.${agent.lastName}@example.com`.toLowerCase(),
    number: `1555123${agent.extension.padStart(4, '0')}`,
    endpoint: endpointOf(agent),
  }));

export interface AsteriskProviderOptions {
  id?: string;
  ariURL: string;
  dialMode?: 'two-step' | 'direct';
  agents?: readonly AsteriskAgentSpec[];
  syncIntervalMs?: number;
  staleAfterMs?: number;
  keepEndedMs?: number;
  /** The provider's queues, as the config gives them. */
  queues?: readonly z.input<typeof queueConfigSchema>[];
}

export const asteriskProviderConfig = ({ id = 'pbx', ariURL, dialMode, agents = TEST_AGENTS, syncIntervalMs, staleAfterMs, keepEndedMs, queues }: AsteriskProviderOptions) => ({
  id,
  name: 'Asterisk',
  type: 'asterisk' as const,
  requestTimeoutMs: 3000,
  ...(syncIntervalMs === undefined ? {} : { syncIntervalMs }),
  ...(keepEndedMs === undefined ? {} : { keepEndedMs }),
  ...(staleAfterMs === undefined ? {} : { staleAfterMs }),
  ...(queues === undefined ? {} : { queues }),
  settings: {
    ariURL,
    username: ARI_USER,
    password: ARI_PASSWORD,
    app: 'callboard',
    dialContext: DIAL_CONTEXT,
    trunkEndpoint: TRUNK_ENDPOINT,
    ...(dialMode ? { dialMode } : {}),
    agents: agentsConfig(agents),
  },
});

/** The Asterisk provider's phone system itself, on the double, with the test agents: for tests below the service. */
export const asteriskOnDouble = (
  ariURL: string,
  clock: Clock,
  options: { dialMode?: 'two-step' | 'direct'; agents?: readonly AsteriskAgent[]; queues?: readonly QueueConfig[] } = {},
) =>
  createAsteriskPhoneSystem({
    ariURL,
    username: ARI_USER,
    password: ARI_PASSWORD,
    app: 'callboard',
    dialContext: DIAL_CONTEXT,
    trunkEndpoint: TRUNK_ENDPOINT,
    dialMode: options.dialMode ?? 'two-step',
    agents: options.agents ?? agentsConfig(TEST_AGENTS).map((agent) => ({ ...agent, active: true })),
    queues: options.queues ?? [],
    clock,
  });
