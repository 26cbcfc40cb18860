/**
 * `npm run demo:asterisk`: the dashboard over the Asterisk provider without an Asterisk. Starts the
 * double of Asterisk's REST Interface with a small call center running on it, and the built
 * service with an Asterisk provider pointed at it: calls arrive over ARI's event WebSocket as they
 * would from a PBX. Ctrl-C stops both.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { paths } from '../../contract/paths.js';
import { startProgram, waitForHealth, type RunningProgram } from '../child-process.js';
import { AriDouble } from './ari-double.js';
import { startAsteriskCallCenter } from './asterisk-call-center.js';
import { ARI_PASSWORD, ARI_USER, asteriskProviderConfig, endpointOf, type AsteriskAgentSpec } from './asterisk-testbed.js';

const NAMES = [
  ['Ada', 'Lovelace'],
  ['Alan', 'Turing'],
  ['Barbara', 'Liskov'],
  ['Claude', 'Shannon'],
  ['Grace', 'Hopper'],
  ['Hedy', 'Lamarr'],
  ['Katherine', 'Johnson'],
  ['Radia', 'Perlman'],
];

const print = (line = '') => process.stdout.write(`${line}\n`);

const { values: args } = parseArgs({
  options: {
    port: { type: 'string', default: process.env.PORT ?? '8080' },
    rate: { type: 'string', default: '6' },
  },
});

const agents: AsteriskAgentSpec[] = NAMES.map(([first, last], i) => ({
  subscriberID: `agt-${101 + i}`,
  firstName: first as string,
  lastName: last as string,
  extension: String(101 + i),
}));

const main = async () => {
  const port = Number(args.port);
  const rate = Number(args.rate);
  if (!Number.isInteger(port) || port < 1 || port > 65_535) throw new Error('--port must be a port number');
  if (!(rate > 0 && rate <= 600)) throw new Error('--rate must be calls a minute, more than 0 and at most 600');
  const baseURL = `http://127.0.0.1:${port}`;
  const scope = { accountID: 'demo', applicationID: 'support', providerID: 'pbx' };
  const endpoints = agents.map(endpointOf);
  const double = await AriDouble.start({ username: ARI_USER, password: ARI_PASSWORD, endpoints });
  const token = randomBytes(24).toString('base64url');
  const configDir = await mkdtemp(join(tmpdir(), 'callboard-asterisk-demo-'));
  let service: RunningProgram | undefined;
  let center: ReturnType<typeof startAsteriskCallCenter> | undefined;
  let stopping = false;
  const shutdown = async (code: number) => {
    if (stopping) return;
    stopping = true;
    print('\n  Stopping: the call center, the service, the double of ARI...');
    center?.stop();
    await service?.stop(10_000);
    await double.stop();
    await rm(configDir, { recursive: true, force: true });
    process.exit(code);
  };
  process.on('SIGINT', () => void shutdown(0));
  process.on('SIGTERM', () => void shutdown(0));

  try {
    const config = {
      accounts: [
        {
          id: 'demo',
          name: 'Demo call center',
          applications: [{ id: 'support', name: 'Support desk', providers: [asteriskProviderConfig({ ariURL: double.url, agents })] }],
          tokens: [{ name: 'supervisor', token, applications: '*', permissions: ['calls:read', 'calls:write', 'calls:control'] }],
        },
      ],
    };
    await writeFile(join(configDir, 'callboard.json'), JSON.stringify(config, null, 2));
    const env = { CALLBOARD_CONFIG: join(configDir, 'callboard.json'), PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', CALLBOARD_DATA_DIR: configDir };
    service = startProgram('service', process.execPath, ['--enable-source-maps', 'dist/server/main.js'], process.cwd(), env);
    await waitForHealth(baseURL, service);
    center = startAsteriskCallCenter({ double, endpoints, callsPerMinute: rate });
    print('');
    print('  Callboard is running over the Asterisk provider, against a double of Asterisk\'s REST Interface');
    print(`  (ARI) on this machine (${double.url}); no Asterisk is used. Calls arrive over ARI's event WebSocket.`);
    print('');
    print(`  Dashboard (one click, signs you in):  ${baseURL}/#token=${token}`);
    print('');
    print('  API token for this run:');
    print(`    ${token}`);
    print(`    curl -H "Authorization: Bearer ${token}" ${baseURL}${paths.listCalls(scope)}`);
    print('');
    print(`  About ${rate} customer calls a minute to ${agents.length} agents (PJSIP/101 to PJSIP/${100 + agents.length}).`);
    print('  Click-to-call rings an agent\'s phone, then the dialplan dials the customer. Ctrl-C stops everything.');
    print('');
    const report = setInterval(() => {
      const stats = center?.stats();
      if (stats) print(`  offered ${stats.offered}   answered ${stats.answered}   abandoned ${stats.abandoned}   requests to ARI ${double.requests.length}   events ${double.events.length}`);
    }, 15_000);
    report.unref();
  } catch (error) {
    process.stderr.write(`asterisk demo: ${(error as Error).message}\n`);
    await shutdown(1);
  }
};

void main();
