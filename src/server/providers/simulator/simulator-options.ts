/** The simulator's options, their defaults, and the checks that name a bad one. */
import type { Clock } from '../../clock.js';
import type { DialMode, SimulatedQueue } from './call-center.js';

export interface PhoneSystemSimulatorOptions {
  clock: Clock;
  /** Same seed, options and clock readings give the same calls, to the millisecond. */
  seed: number;
  /** The provider's name; it also names the SIP host in every providerCallID. */
  name: string;
  /** 'two-step' (default) rings the agent's device first; 'direct' dials the remote number at once. */
  dialMode?: DialMode;
  /** Agents in the directory (default 24). Inbound volume grows with agents × traffic. */
  agents?: number;
  /** Calls per agent relative to a normally staffed center (default 1). */
  traffic?: number;
  /** Simulated milliseconds per clock millisecond, counted from creation (default 1). */
  speed?: number;
  /** Simulated time run before creation, so the center starts in full swing (default one hour). */
  warmupMs?: number;
  /** Simulated time an ended call stays listed (default 120000). */
  keepEndedMs?: number;
  /** Domain of the agents' email addresses (default example.com). */
  emailDomain?: string;
  /**
   * Ended calls of the live center kept to tell its past (default 0): a simulator that outlives
   * the services reading it (a process of its own) tells the calls it really had, the newest this
   * many, instead of a separate run's.
   */
  recordedCalls?: number;
  /** The center's queues (default none): inbound calls are spread over them and ring their members. */
  queues?: readonly SimulatedQueue[];
}

/** What identifies the center and its runs of the past; the record of its ended calls is the live simulator's alone. */
export type ResolvedSimulatorOptions = Required<Omit<PhoneSystemSimulatorOptions, 'recordedCalls'>>;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

interface NumberRule {
  readonly fallback: number;
  readonly min: number;
  readonly max: number;
  readonly integer?: boolean;
}

const NUMBER_RULES = {
  agents: { fallback: 24, min: 1, max: 50_000, integer: true },
  traffic: { fallback: 1, min: 0.001, max: 100 },
  speed: { fallback: 1, min: 0.001, max: 100_000 },
  warmupMs: { fallback: HOUR, min: 0, max: 7 * DAY, integer: true },
  keepEndedMs: { fallback: 120_000, min: 0, max: DAY, integer: true },
  recordedCalls: { fallback: 0, min: 0, max: 10_000_000, integer: true },
} satisfies Record<string, NumberRule>;

const DIAL_MODES: readonly DialMode[] = ['two-step', 'direct'];
export const DOMAIN_NAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/i;

export const resolveSimulatorOptions = (options: PhoneSystemSimulatorOptions): ResolvedSimulatorOptions => {
  if (typeof options.clock?.now !== 'function') invalid('clock', 'an object with a now() method', options.clock);
  if (!Number.isSafeInteger(options.seed)) invalid('seed', 'a safe integer', options.seed);
  if (typeof options.name !== 'string' || !/[a-z0-9]/i.test(options.name)) {
    invalid('name', 'a name with at least one letter or digit', options.name);
  }
  return {
    clock: options.clock,
    seed: options.seed,
    name: options.name,
    dialMode: dialMode(options.dialMode),
    agents: numberOption('agents', options.agents),
    traffic: numberOption('traffic', options.traffic),
    speed: numberOption('speed', options.speed),
    warmupMs: numberOption('warmupMs', options.warmupMs),
    keepEndedMs: numberOption('keepEndedMs', options.keepEndedMs),
    emailDomain: emailDomain(options.emailDomain),
    queues: (options.queues ?? []).map(({ id, name, numbers, members }) => ({ id, name, numbers: [...numbers], members: [...members] })),
  };
};

export const resolveRecordedCalls = (options: PhoneSystemSimulatorOptions): number => numberOption('recordedCalls', options.recordedCalls);

const numberOption = (option: keyof typeof NUMBER_RULES, value: number | undefined): number => {
  const rule: NumberRule = NUMBER_RULES[option];
  if (value === undefined) return rule.fallback;
  const inRange = typeof value === 'number' && value >= rule.min && value <= rule.max;
  if (!inRange || (rule.integer && !Number.isInteger(value))) {
    invalid(option, `${rule.integer ? 'an integer' : 'a number'} from ${rule.min} to ${rule.max}`, value);
  }
  return value;
};

const dialMode = (value: DialMode | undefined): DialMode => {
  if (value === undefined) return 'two-step';
  if (!DIAL_MODES.includes(value)) invalid('dialMode', `one of ${DIAL_MODES.join(', ')}`, value);
  return value;
};

const emailDomain = (value: string | undefined): string => {
  if (value === undefined) return 'example.com';
  if (typeof value !== 'string' || !DOMAIN_NAME.test(value)) invalid('emailDomain', 'a domain name such as example.com', value);
  return value.toLowerCase();
};

const invalid = (option: string, expected: string, value: unknown): never => {
  throw new Error(
    `Invalid phone-system simulator option "${option}": expected ${expected}, got ${JSON.stringify(value) ?? String(value)}`,
  );
};
