/**
 * `npm run demo:sip`: the dashboard over a real phone system. Starts the test bed (Kamailio, rtpengine
 * and SIP phones), the built service with a Kamailio provider, and a load generator that keeps dozens
 * of real calls going, until Ctrl-C; then stops everything by PID. Two agents have no desk phone: the
 * dashboard's browser phone is theirs, and a customer calls whichever of them is signed in and free.
 */
import { runDemo } from '../run-demo.js';
import { startBrowserCaller } from './browser-caller.js';
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

/** Agents whose phone is the dashboard in a browser (SIP users 1901, 1902). */
const BROWSER_AGENTS: AgentSpec[] = [
  { subscriberID: 'web-001', sipUser: '1901', firstName: 'Rosa', lastName: 'Parks', extension: '901' },
  { subscriberID: 'web-002', sipUser: '1902', firstName: 'Alan', lastName: 'Kay', extension: '902' },
];
/** The customers who call the browser agents, apart from the load generator's. */
const BROWSER_CALLERS = ['15550299001', '15550299002'];

/** Customers' phones have public numbers, so they read as real callers on the dashboard. */
const customerUsers = (customers: number) => Array.from({ length: customers }, (_, i) => `1555020${String(1000 + i).padStart(4, '0')}`);

void runDemo({
  name: 'sip',
  flags: { agents: '30', customers: '30', calls: '24' },
  token: { name: 'demo', permissions: ['calls:read', 'calls:write', 'calls:control'] },
  // Real calls cannot be backfilled: their journal is the service's own (./data), kept from run to run.
  dataDir: 'data',
  reportEveryMs: 10_000,
  stopping: 'load generator, service, phones, Kamailio, rtpengine',
  setUp: async (flags, say) => {
    const agents = agentSpecs(count('agents', flags.agents, 1, 200));
    const customers = customerUsers(count('customers', flags.customers, 1, 200));
    const targetCalls = count('calls', flags.calls, 1, 200);
    const phones = [...agents.map((a) => a.sipUser), ...customers].map((user) => ({ user, answerMode: 'manual' as const }));
    say(`  Starting Kamailio, rtpengine and ${phones.length + BROWSER_CALLERS.length} SIP phones on 127.0.0.1...`);
    const bed = await startSipTestbed({ webrtc: true, phones: [...phones, ...BROWSER_CALLERS.map((user) => ({ user }))] });
    say(`  All phones registered in ${bed.startupMs} ms (Kamailio SIP at ${bed.sipDomain}, WebSocket at ${bed.webrtc?.websocketURL}, JSON-RPC at ${bed.rpcURL}).`);
    return {
      intro: [
        '  Callboard is running over a real SIP phone system (Kamailio + rtpengine + baresip phones).',
        `  Browser phone: turn it on in the dashboard as ${BROWSER_AGENTS.map((a) => `${a.firstName} ${a.lastName} (${a.subscriberID})`).join(' or ')};`,
        '  a customer calls you within half a minute, with a 440 Hz tone for a voice.',
      ],
      provider: () => ({ ...kamailioProviderConfig(bed, [...agents, ...BROWSER_AGENTS]), staleAfterMs: 30_000 }),
      startCalls: () => {
        const load = startLoadGenerator(bed, { agents: agents.map((a) => bed.phone(a.sipUser)), customers: customers.map((user) => bed.phone(user)), targetCalls });
        const browserCalls = startBrowserCaller(bed, { agents: BROWSER_AGENTS.map((a) => a.sipUser), callers: BROWSER_CALLERS.map((user) => bed.phone(user)) });
        return {
          about: [`  Keeping about ${targetCalls} real calls going between ${agents.length} agents and ${customers.length} customers. Ctrl-C stops everything.`],
          report: () => {
            const s = load.stats();
            return `live ${s.live}   placed ${s.placed}   answered ${s.answered}   completed ${s.completed}   abandoned ${s.abandoned}   failed ${s.failed}   to browsers ${browserCalls.placed()}`;
          },
          stop: () => {
            browserCalls.stop();
            return load.stop();
          },
        };
      },
      stop: () => bed.stop(),
    };
  },
});
