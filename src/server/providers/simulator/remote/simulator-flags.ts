/** The standalone simulator's command-line flags: read, checked (a bad one is named, with why), and defaulted. */
import { randomInt } from 'node:crypto';
import type { DialMode } from '../call-center.js';
import { DOMAIN_NAME, type PhoneSystemSimulatorOptions } from '../simulator-options.js';

export interface SimulatorFlags {
  host: string;
  port: number;
  /** The center; what is left out takes the simulator's defaults. */
  simulator: Omit<PhoneSystemSimulatorOptions, 'clock'> & { recordedCalls: number };
  /** Serve the drill routes (failure, next placed call). */
  control: boolean;
  /** Only check the flags. */
  check: boolean;
  help: boolean;
}

/** A flag that cannot be used, named with the reason. */
export class FlagError extends Error {
  override name = 'FlagError';
}

export const SIMULATOR_USAGE = `Usage: npm run simulator -- [flags]   (or: node dist/server/simulator-main.js [flags])

  --port N            port to listen on (default 8090; 0 picks a free one, printed at start)
  --host ADDRESS      address to listen on (default 127.0.0.1)
  --seed N            the center's seed: the same seed gives the same center (default: random, printed at start)
  --name NAME         the provider's name, in every providerCallID's SIP host (default simulator)
  --agents N          agents in the directory, 1 to 50000 (default 24)
  --traffic X         calls per agent relative to a normally staffed center, up to 100 (default 1)
  --dial-mode MODE    two-step (rings the agent first) or direct (default two-step)
  --speed X           simulated time per clock time, up to 1000 (default 1)
  --keep-ended-ms N   how long an ended call stays listed, up to 86400000 (default 120000)
  --email-domain D    domain of the agents' email addresses (default example.com)
  --recorded-calls N  ended calls remembered to tell a service its past, up to 10000000 (default 200000)
  --control           serve the drill routes: fail, stall or recover, and script the next placed call
  --check             check the flags and exit
  --help              this text`;

const DIAL_MODES: readonly DialMode[] = ['two-step', 'direct'];
const BOOLEAN_FLAGS = ['control', 'check', 'help'] as const;
const VALUE_FLAGS = [
  'port',
  'host',
  'seed',
  'name',
  'agents',
  'traffic',
  'dial-mode',
  'speed',
  'keep-ended-ms',
  'email-domain',
  'recorded-calls',
] as const;
type ValueFlag = (typeof VALUE_FLAGS)[number];

const DECIMAL = /^-?(?:\d+\.?\d*|\.\d+)$/;

/** Reads `--flag value`, `--flag=value` and bare boolean flags; anything else is named as the problem. */
const readArgs = (argv: readonly string[]) => {
  const values = new Map<ValueFlag, string>();
  const booleans = new Set<string>();
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] as string;
    const match = /^--([a-z-]+)(?:=(.*))?$/s.exec(arg);
    if (!match) throw new FlagError(`"${arg}": not a flag; the simulator takes only flags (--help lists them)`);
    const [, flag = '', inline] = match;
    if ((BOOLEAN_FLAGS as readonly string[]).includes(flag)) {
      if (inline !== undefined) throw new FlagError(`--${flag}: takes no value (write --${flag} alone)`);
      booleans.add(flag);
      continue;
    }
    if (!(VALUE_FLAGS as readonly string[]).includes(flag)) throw new FlagError(`--${flag}: not a flag of the simulator (--help lists them)`);
    if (values.has(flag as ValueFlag)) throw new FlagError(`--${flag}: given twice`);
    const value = inline ?? argv[(i += 1)];
    if (value === undefined || (inline === undefined && value.startsWith('--'))) throw new FlagError(`--${flag}: needs a value`);
    values.set(flag as ValueFlag, value);
  }
  return { values, booleans };
};

interface Range {
  min: number;
  max: number;
  integer?: boolean;
  /** The lower bound itself is excluded. */
  above?: boolean;
}

const numberFlag = (flag: ValueFlag, text: string | undefined, range: Range): number | undefined => {
  if (text === undefined) return undefined;
  const value = Number(text);
  const inRange = (range.above ? value > range.min : value >= range.min) && value <= range.max;
  if (!DECIMAL.test(text) || !inRange || (range.integer && !Number.isInteger(value))) {
    const lower = range.above ? `above ${range.min}` : `from ${range.min}`;
    throw new FlagError(`--${flag}: must be ${range.integer ? 'an integer' : 'a number'} ${lower} to ${range.max}, got "${text}"`);
  }
  return value;
};

const dialMode = (text: string | undefined): DialMode | undefined => {
  if (text === undefined || (DIAL_MODES as readonly string[]).includes(text)) return text as DialMode | undefined;
  throw new FlagError(`--dial-mode: must be ${DIAL_MODES.join(' or ')}, got "${text}"`);
};

const textFlag = (flag: ValueFlag, text: string | undefined, rule: RegExp, expected: string): string | undefined => {
  if (text === undefined || rule.test(text)) return text;
  throw new FlagError(`--${flag}: must be ${expected}, got "${text}"`);
};

export const parseSimulatorFlags = (argv: readonly string[]): SimulatorFlags => {
  const { values, booleans } = readArgs(argv);
  const get = (flag: ValueFlag) => values.get(flag);
  return {
    host: textFlag('host', get('host'), /^\S+$/, 'an address such as 127.0.0.1 or ::1') ?? '127.0.0.1',
    port: numberFlag('port', get('port'), { min: 0, max: 65_535, integer: true }) ?? 8090,
    simulator: {
      seed: numberFlag('seed', get('seed'), { min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER, integer: true }) ?? randomInt(2 ** 31),
      name: textFlag('name', get('name'), /[a-z0-9]/i, 'a name with at least one letter or digit') ?? 'simulator',
      agents: numberFlag('agents', get('agents'), { min: 1, max: 50_000, integer: true }),
      traffic: numberFlag('traffic', get('traffic'), { min: 0, max: 100, above: true }),
      dialMode: dialMode(get('dial-mode')),
      speed: numberFlag('speed', get('speed'), { min: 0, max: 1000, above: true }),
      keepEndedMs: numberFlag('keep-ended-ms', get('keep-ended-ms'), { min: 0, max: 86_400_000, integer: true }),
      emailDomain: textFlag('email-domain', get('email-domain'), DOMAIN_NAME, 'a domain name such as example.com'),
      recordedCalls: numberFlag('recorded-calls', get('recorded-calls'), { min: 0, max: 10_000_000, integer: true }) ?? 200_000,
    },
    control: booleans.has('control'),
    check: booleans.has('check'),
    help: booleans.has('help'),
  };
};
