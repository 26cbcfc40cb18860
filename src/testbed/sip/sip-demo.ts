/**
 * `npm run demo:sip`: the dashboard over a real phone system. Starts the test bed (Kamailio and
 * SIP phones), the built service with a Kamailio provider, and a load generator that keeps dozens
 * of real calls going, until Ctrl-C; then stops everything by PID.
 */
import { runDemo } from '../run-demo.js';
import { startLoadGenerator } from './load-generator.js';
import { startSipTestbed } from './sip-testbed.js';
import { kamailioProviderConfig, type AgentSpec } from './testbed-provider.js';

const FIRST_NAMES = ['Ada', 'Alan', 'Barbara', 'Claude', 'Dennis', 'Edsger', 'Frances', 'Grace', 'Hedy', 'Ivan', 'Joan', 'Ken', 'Linus', 'Margaret', 'Niklaus', 'Radia'];
const LAST_NAMES = ['Lovelace', 'Turing', 'Liskov', 'Shannon', 'Ritchie', 'Dijkstra', 'Allen', 'Hopper', 'Lamarr', 'Sutherland', 'Clarke', 'Thompson', 'Torvalds', 'Hamilton', 'Wirth', 'Perlman'];

const count = (name: string, text: string, min: number, max: number) => {
  const value = Number(text);
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

void runDemo({
  name: 'sip',
  flags: { agents: '30', customers: '30', calls: '24' },
  token: { name: 'demo', permissions: ['calls:read', 'calls:write'] },
  // Real calls cannot be backfilled: their journal is the service's own (./data), kept from run to run.
  dataDir: 'data',
  reportEveryMs: 10_000,
  stopping: 'load generator, service, phones, Kamailio',
  setUp: async (flags, say) => {
    const agents = agentSpecs(count('agents', flags.agents, 1, 200));
    const customers = customerUsers(count('customers', flags.customers, 1, 200));
    const targetCalls = count('calls', flags.calls, 1, 200);
    say(`  Starting Kamailio and ${agents.length + customers.length} SIP phones on 127.0.0.1...`);
    const bed = await startSipTestbed({ phones: [...agents.map((a) => a.sipUser), ...customers].map((user) => ({ user, answerMode: 'manual' as const })) });
    say(`  All phones registered in ${bed.startupMs} ms (Kamailio SIP at ${bed.sipDomain}, JSON-RPC at ${bed.rpcURL}).`);
    return {
      intro: ['  Callboard is running over a real SIP phone system (Kamailio + baresip phones).'],
      provider: () => ({ ...kamailioProviderConfig(bed, agents), staleAfterMs: 30_000 }),
      startCalls: () => {
        const load = startLoadGenerator(bed, { agents: agents.map((a) => bed.phone(a.sipUser)), customers: customers.map((user) => bed.phone(user)), targetCalls });
        return {
          about: [`  Keeping about ${targetCalls} real calls going between ${agents.length} agents and ${customers.length} customers. Ctrl-C stops everything.`],
          report: () => {
            const s = load.stats();
            return `live ${s.live}   placed ${s.placed}   answered ${s.answered}   completed ${s.completed}   abandoned ${s.abandoned}   failed ${s.failed}`;
          },
          stop: () => load.stop(),
        };
      },
      stop: () => bed.stop(),
    };
  },
});
