/**
 * `npm run demo:sip`: the dashboard over a real phone system. Starts the test bed (Kamailio and
 * SIP phones), the built service with a Kamailio provider, and a load generator that keeps dozens
 * of real calls going, until Ctrl-C; then stops everything by PID.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startProgram, waitForHealth, type RunningProgram } from './child-process.js';
import { startLoadGenerator, type LoadGenerator } from './load-generator.js';
import { startSipTestbed, type SipTestbed } from './sip-testbed.js';
import { kamailioProviderConfig, type AgentSpec } from './testbed-provider.js';

const FIRST_NAMES = ['Ada', 'Alan', 'Barbara', 'Claude', 'Dennis', 'Edsger', 'Frances', 'Grace', 'Hedy', 'Ivan', 'Joan', 'Ken', 'Linus', 'Margaret', 'Niklaus', 'Radia'];
const LAST_NAMES = ['Lovelace', 'Turing', 'Liskov', 'Shannon', 'Ritchie', 'Dijkstra', 'Allen', 'Hopper', 'Lamarr', 'Sutherland', 'Clarke', 'Thompson', 'Torvalds', 'Hamilton', 'Wirth', 'Perlman'];

const print = (line = '') => process.stdout.write(`${line}\n`);

const { values: args } = parseArgs({
  options: {
    agents: { type: 'string', default: '30' },
    customers: { type: 'string', default: '30' },
    calls: { type: 'string', default: '24' },
    port: { type: 'string', default: process.env.PORT ?? '8080' },
  },
});
const count = (name: keyof typeof args, min: number, max: number) => {
  const value = Number(args[name]);
  if (!Number.isInteger(value) || value < min || value > max) throw new Error(`--${name} must be a whole number from ${min} to ${max}`);
  return value;
};

const agentSpecs = (agents: number): AgentSpec[] =>
  Array.from({ length: agents }, (_, i) => ({
    subscriberID: `agt-${String(i + 1).padStart(3, '0')}`,
    sipUser: String(1001 + i),
    firstName: FIRST_NAMES[i % FIRST_NAMES.length] as string,
    lastName: LAST_NAMES[(i * 7 + Math.floor(i / FIRST_NAMES.length)) % LAST_NAMES.length] as string,
    extension: String(101 + i),
  }));

/** Customers' phones have public numbers, so they read as real callers on the dashboard. */
const customerUsers = (customers: number) => Array.from({ length: customers }, (_, i) => `1555020${String(1000 + i).padStart(4, '0')}`);

const main = async () => {
  const agents = agentSpecs(count('agents', 1, 200));
  const customers = customerUsers(count('customers', 1, 200));
  const targetCalls = count('calls', 1, 200);
  const port = count('port', 1, 65_535);
  let bed: SipTestbed | undefined;
  let service: RunningProgram | undefined;
  let load: LoadGenerator | undefined;
  let configDir: string | undefined;
  let stopping = false;

  const shutdown = async (code: number) => {
    if (stopping) return;
    stopping = true;
    print('\n  Stopping: load generator, service, phones, Kamailio...');
    await load?.stop();
    await service?.stop(10_000);
    await bed?.stop();
    if (configDir) await rm(configDir, { recursive: true, force: true });
    process.exit(code);
  };
  process.on('SIGINT', () => void shutdown(0));
  process.on('SIGTERM', () => void shutdown(0));

  try {
    print(`  Starting Kamailio and ${agents.length + customers.length} SIP phones on 127.0.0.1...`);
    bed = await startSipTestbed({ phones: [...agents.map((a) => a.sipUser), ...customers].map((user) => ({ user, answerMode: 'manual' as const })) });
    print(`  All phones registered in ${bed.startupMs} ms (Kamailio SIP at ${bed.sipDomain}, JSON-RPC at ${bed.rpcURL}).`);

    const token = randomBytes(24).toString('base64url');
    configDir = await mkdtemp(join(tmpdir(), 'callboard-sip-demo-'));
    const config = {
      accounts: [
        {
          id: 'demo',
          name: 'Demo call center',
          applications: [{ id: 'support', name: 'Support desk', providers: [{ ...kamailioProviderConfig(bed, agents), staleAfterMs: 30_000 }] }],
          tokens: [{ name: 'demo', token, applications: '*', permissions: ['calls:read', 'calls:write'] }],
        },
      ],
    };
    await writeFile(join(configDir, 'callboard.json'), JSON.stringify(config, null, 2));
    const env = { CALLBOARD_CONFIG: join(configDir, 'callboard.json'), PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' };
    service = startProgram('service', process.execPath, ['--enable-source-maps', 'dist/server/main.js'], process.cwd(), env);
    const baseURL = `http://127.0.0.1:${port}`;
    await waitForHealth(baseURL, service);

    const byUser = (user: string) => (bed as SipTestbed).phone(user);
    load = startLoadGenerator(bed, { agents: agents.map((a) => byUser(a.sipUser)), customers: customers.map(byUser), targetCalls });
    const scope = `${baseURL}/v1/accounts/demo/applications/support`;
    print('');
    print('  Callboard is running over a real SIP phone system (Kamailio + baresip phones).');
    print('');
    print(`  Dashboard (one click, signs you in):  ${baseURL}/#token=${token}`);
    print('');
    print('  API token for this run:');
    print(`    ${token}`);
    print(`    curl -H "Authorization: Bearer ${token}" ${scope}/provider/kamailio/calls`);
    print('');
    print(`  Keeping about ${targetCalls} real calls going between ${agents.length} agents and ${customers.length} customers. Ctrl-C stops everything.`);
    print('');
    const report = setInterval(() => {
      const s = load?.stats();
      if (s) print(`  live ${s.live}   placed ${s.placed}   answered ${s.answered}   completed ${s.completed}   abandoned ${s.abandoned}   failed ${s.failed}`);
    }, 10_000);
    report.unref();
  } catch (error) {
    process.stderr.write(`sip demo: ${(error as Error).message}\n`);
    await shutdown(1);
  }
};

void main();
