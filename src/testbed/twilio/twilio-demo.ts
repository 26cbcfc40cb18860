/**
 * `npm run demo:twilio`: the dashboard over the Twilio provider without a Twilio account. Starts the
 * double of Twilio's API with a small call center running on it, and the built service with a
 * Twilio provider pointed at the double, whose signed status callbacks reach the service's webhook.
 * Ctrl-C stops both.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { paths } from '../../contract/paths.js';
import { startProgram, waitForHealth, type RunningProgram } from '../child-process.js';
import { startTwilioCallCenter } from './twilio-call-center.js';
import { TwilioDouble } from './twilio-double.js';
import { TEST_ACCOUNT_SID, TEST_AUTH_TOKEN, TEST_NUMBER, twilioProviderConfig, type TwilioAgentSpec } from './twilio-testbed.js';

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
    rate: { type: 'string', default: '5' },
  },
});

const agents: TwilioAgentSpec[] = NAMES.map(([first, last], i) => ({
  subscriberID: `agt-${(first as string).toLowerCase()}`,
  firstName: first as string,
  lastName: last as string,
  extension: String(101 + i),
  device: `client:${(first as string).toLowerCase()}`,
}));

const main = async () => {
  const port = Number(args.port);
  const rate = Number(args.rate);
  if (!Number.isInteger(port) || port < 1 || port > 65_535) throw new Error('--port must be a port number');
  if (!(rate > 0 && rate <= 600)) throw new Error('--rate must be calls a minute, more than 0 and at most 600');
  const baseURL = `http://127.0.0.1:${port}`;
  const scope = { accountID: 'demo', applicationID: 'support', providerID: 'twilio' };
  const double = await TwilioDouble.start({ accountSid: TEST_ACCOUNT_SID, authToken: TEST_AUTH_TOKEN });
  const token = randomBytes(24).toString('base64url');
  const configDir = await mkdtemp(join(tmpdir(), 'callboard-twilio-demo-'));
  let service: RunningProgram | undefined;
  let center: ReturnType<typeof startTwilioCallCenter> | undefined;
  let stopping = false;
  const shutdown = async (code: number) => {
    if (stopping) return;
    stopping = true;
    print('\n  Stopping: the call center, the service, the double of Twilio...');
    center?.stop();
    await service?.stop(10_000);
    await double.close();
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
          applications: [{ id: 'support', name: 'Support desk', providers: [twilioProviderConfig({ apiBaseURL: double.url, webhookBaseURL: baseURL, agents })] }],
          tokens: [{ name: 'demo', token, applications: '*', permissions: ['calls:read', 'calls:write'] }],
        },
      ],
    };
    await writeFile(join(configDir, 'callboard.json'), JSON.stringify(config, null, 2));
    const env = { CALLBOARD_CONFIG: join(configDir, 'callboard.json'), PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', CALLBOARD_DATA_DIR: configDir };
    service = startProgram('service', process.execPath, ['--enable-source-maps', 'dist/server/main.js'], process.cwd(), env);
    await waitForHealth(baseURL, service);
    center = startTwilioCallCenter({
      double,
      number: `+${TEST_NUMBER}`,
      devices: agents.map((agent) => agent.device),
      webhookURL: `${baseURL}${paths.webhook('twilio', scope)}`,
      callsPerMinute: rate,
    });
    print('');
    print('  Callboard is running over the Twilio provider, against a double of Twilio\'s API on this machine');
    print(`  (${double.url}); no Twilio account is used. Status callbacks are signed as Twilio signs them.`);
    print('');
    print(`  Dashboard (one click, signs you in):  ${baseURL}/#token=${token}`);
    print('');
    print('  API token for this run:');
    print(`    ${token}`);
    print(`    curl -H "Authorization: Bearer ${token}" ${baseURL}${paths.listCalls(scope)}`);
    print('');
    print(`  About ${rate} customer calls a minute to ${agents.length} agents. Click-to-call rings an agent's device, then the customer.`);
    print('  Ctrl-C stops everything.');
    print('');
    const report = setInterval(() => {
      const stats = center?.stats();
      if (stats) print(`  live ${stats.live}   offered ${stats.offered}   abandoned ${stats.abandoned}   requests to Twilio ${double.requests.length}   callbacks ${double.sentCallbacks.length}`);
    }, 15_000);
    report.unref();
  } catch (error) {
    process.stderr.write(`twilio demo: ${(error as Error).message}\n`);
    await shutdown(1);
  }
};

void main();
