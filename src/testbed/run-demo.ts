/**
 * What every `npm run demo:<provider>` does around its own phone system: reads its flags, starts
 * that phone system (a test bed or a double), writes the config and starts the built service over
 * it, prints the one-click link and the token, reports the calls now and then, and stops it all,
 * in order and by PID, on Ctrl-C or a failure.
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import type { Permission } from '../contract/me.js';
import { paths, type ProviderScope } from '../contract/paths.js';
import { startBuiltService, type BuiltService } from './built-service.js';

const print = (line = '') => process.stdout.write(`${line}\n`);

/** The calls a demo keeps going on its phone system, once the service runs. */
export interface DemoCalls {
  /** What the banner says of them (and of Ctrl-C). */
  readonly about: readonly string[];
  /** A line on how they go, printed every so often. */
  report(): string;
  stop(): void | Promise<void>;
}

/** A demo's phone system, running on this machine. */
export interface DemoPhoneSystem {
  /** The banner's opening: what the service runs over. */
  readonly intro: readonly string[];
  /** Its provider in the service's config, given the service's URL (a webhook's base). */
  provider(serviceURL: string): { id: string; type: string };
  /** Starts the calls once the service is ready. */
  startCalls(service: { url: string; scope: ProviderScope; provider: { type: string } }): DemoCalls;
  stop(): Promise<void>;
}

export interface Demo<Flag extends string> {
  /** Names it in messages (`<name> demo: …`) and its temporary directory. */
  name: string;
  /** Its own flags and their defaults, besides `--port`. */
  flags: Record<Flag, string>;
  /** The token the banner prints. */
  token: { name: string; permissions: Permission[] };
  /** The service's journal; a throwaway one by default. */
  dataDir?: string;
  reportEveryMs: number;
  /** What Ctrl-C stops, in order, as the line that says so names it. */
  stopping: string;
  /** Reads its flags (throwing on a bad one) and starts its phone system. */
  setUp(flags: Record<Flag, string>, say: (line?: string) => void): Promise<DemoPhoneSystem>;
}

/** `--rate`: calls a minute a demo's call center offers. */
export const callsPerMinute = (text: string): number => {
  const rate = Number(text);
  if (!(rate > 0 && rate <= 600)) throw new Error('--rate must be calls a minute, more than 0 and at most 600');
  return rate;
};

/** The agents of the demos on a double: names a reader knows. */
export const AGENT_NAMES = [
  ['Ada', 'Lovelace'],
  ['Alan', 'Turing'],
  ['Barbara', 'Liskov'],
  ['Claude', 'Shannon'],
  ['Grace', 'Hopper'],
  ['Hedy', 'Lamarr'],
  ['Katherine', 'Johnson'],
  ['Radia', 'Perlman'],
] as const;

const portOf = (text: string) => {
  const port = Number(text);
  if (!Number.isInteger(port) || port < 1 || port > 65_535) throw new Error('--port must be a port number');
  return port;
};

const banner = (phone: DemoPhoneSystem, calls: DemoCalls, url: string, token: string, scope: ProviderScope) => [
  '',
  ...phone.intro,
  '',
  `  Dashboard (one click, signs you in):  ${url}/#token=${token}`,
  '',
  '  API token for this run:',
  `    ${token}`,
  `    curl -H "Authorization: Bearer ${token}" ${url}${paths.listCalls(scope)}`,
  '',
  ...calls.about,
  '',
];

export const runDemo = async <Flag extends string>(demo: Demo<Flag>): Promise<void> => {
  let phone: DemoPhoneSystem | undefined;
  let service: BuiltService | undefined;
  let calls: DemoCalls | undefined;
  let stopping = false;
  const shutdown = async (code: number) => {
    if (stopping) return;
    stopping = true;
    print(`\n  Stopping: ${demo.stopping}...`);
    await calls?.stop();
    await service?.stop();
    await phone?.stop();
    process.exit(code);
  };
  process.on('SIGINT', () => void shutdown(0));
  process.on('SIGTERM', () => void shutdown(0));

  try {
    const defaults = Object.entries<string>(demo.flags).map(([flag, value]) => [flag, { type: 'string', default: value }] as const);
    const { values } = parseArgs({
      options: { port: { type: 'string', default: process.env.PORT ?? '8080' }, ...Object.fromEntries(defaults) },
    });
    const port = portOf(values.port as string);
    phone = await demo.setUp(values as Record<Flag, string>, print);
    const url = `http://127.0.0.1:${port}`;
    const provider = phone.provider(url);
    const scope = { accountID: 'demo', applicationID: 'support', providerID: provider.id };
    const token = randomBytes(24).toString('base64url');
    const config = {
      accounts: [
        {
          id: scope.accountID,
          name: 'Demo call center',
          applications: [{ id: scope.applicationID, name: 'Support desk', providers: [provider] }],
          tokens: [{ name: demo.token.name, token, applications: '*', permissions: demo.token.permissions }],
        },
      ],
    };
    service = await startBuiltService({ name: `${demo.name}-demo`, config, port, ...(demo.dataDir ? { dataDir: demo.dataDir } : {}) });
    const running = phone.startCalls({ url, scope, provider });
    calls = running;
    for (const line of banner(phone, running, url, token, scope)) print(line);
    setInterval(() => print(`  ${running.report()}`), demo.reportEveryMs).unref();
  } catch (error) {
    process.stderr.write(`${demo.name} demo: ${(error as Error).message}\n`);
    await shutdown(1);
  }
};
