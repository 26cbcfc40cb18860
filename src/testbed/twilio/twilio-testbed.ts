/** A Twilio provider's config for the double of Twilio's API, with a few made-up agents, for tests and demos. */
import type { z } from 'zod';
import type { Clock } from '../../server/clock.js';
import type { QueueConfig, queueConfigSchema } from '../../server/queues/queue-config.js';
import { createTwilioPhoneSystem } from '../../server/providers/twilio/twilio-phone-system.js';
import type { TwilioDouble } from './twilio-double.js';

/** The double's account: made up, in Twilio's format. */
export const TEST_ACCOUNT_SID = `AC${'c0ffee'.repeat(5)}42`;
export const TEST_AUTH_TOKEN = 'double-auth-token-0123456789abcd';
/** The account's number callers dial, and the caller ID of the calls it places. */
export const TEST_NUMBER = '15005550006';

export interface TwilioAgentSpec {
  subscriberID: string;
  firstName: string;
  lastName: string;
  extension: string;
  device: string;
}

export const TEST_AGENTS: readonly TwilioAgentSpec[] = [
  { subscriberID: 'agt-ada', firstName: 'Ada', lastName: 'Lovelace', extension: '101', device: 'client:ada' },
  { subscriberID: 'agt-max', firstName: 'Max', lastName: 'Planck', extension: '102', device: 'sip:max@callboard-test.sip.twilio.com' },
  { subscriberID: 'agt-lin', firstName: 'Lin', lastName: 'Clark', extension: '103', device: '15550100103' },
];

export const agentsConfig = (agents: readonly TwilioAgentSpec[]) =>
  agents.map((agent) => ({
    ...agent,
    email: `${agent.firstName}.${agent.lastName}@example.com`.toLowerCase(),
    number: `1555123${agent.extension.padStart(4, '0')}`,
  }));

export interface TwilioProviderOptions {
  id?: string;
  apiBaseURL: string;
  /** The service's URL as the double reaches it; none: calls are placed without callbacks. */
  webhookBaseURL?: string;
  dialMode?: 'two-step' | 'direct';
  agents?: readonly TwilioAgentSpec[];
  syncIntervalMs?: number;
  staleAfterMs?: number;
  keepEndedMs?: number;
  /** The provider's queues, as the config gives them. */
  queues?: readonly z.input<typeof queueConfigSchema>[];
}

export const twilioProviderConfig = ({ id = 'twilio', apiBaseURL, webhookBaseURL, dialMode, agents = TEST_AGENTS, syncIntervalMs, staleAfterMs, keepEndedMs, queues }: TwilioProviderOptions) => ({
  id,
  name: 'Twilio',
  type: 'twilio' as const,
  requestTimeoutMs: 3000,
  ...(syncIntervalMs === undefined ? {} : { syncIntervalMs, minListIntervalMs: Math.min(1000, syncIntervalMs) }),
  ...(keepEndedMs === undefined ? {} : { keepEndedMs }),
  ...(staleAfterMs === undefined ? {} : { staleAfterMs }),
  ...(queues === undefined ? {} : { queues }),
  settings: {
    accountSid: TEST_ACCOUNT_SID,
    authToken: TEST_AUTH_TOKEN,
    apiBaseURL,
    callerID: TEST_NUMBER,
    ...(webhookBaseURL ? { webhookBaseURL } : {}),
    ...(dialMode ? { dialMode } : {}),
    agents: agentsConfig(agents),
  },
});

/** The Twilio provider's phone system itself, on the double, with the test agents (two steps, no callbacks): for tests below the service. */
export const twilioOnDouble = (double: TwilioDouble, clock: Clock, queues: readonly QueueConfig[] = []) =>
  createTwilioPhoneSystem({
    accountSid: TEST_ACCOUNT_SID,
    authToken: TEST_AUTH_TOKEN,
    apiBaseURL: double.url,
    callerID: TEST_NUMBER,
    dialMode: 'two-step',
    agents: agentsConfig(TEST_AGENTS).map((agent) => ({ ...agent, active: true })),
    queues,
    clock,
  });
