/**
 * `npm run demo:asterisk`: the dashboard over the Asterisk provider without an Asterisk. Starts the
 * double of Asterisk's REST Interface with a small call center running on it, and the built
 * service with an Asterisk provider pointed at it: calls arrive over ARI's event WebSocket as they
 * would from a PBX. Ctrl-C stops both.
 */
import { AGENT_NAMES, callsPerMinute, runDemo } from '../run-demo.js';
import { AriDouble } from './ari-double.js';
import { startAsteriskCallCenter } from './asterisk-call-center.js';
import { ARI_PASSWORD, ARI_USER, asteriskProviderConfig, endpointOf, type AsteriskAgentSpec } from './asterisk-testbed.js';

const agents: AsteriskAgentSpec[] = AGENT_NAMES.map(([first, last], i) => ({
  subscriberID: `agt-${101 + i}`,
  firstName: first,
  lastName: last,
  extension: String(101 + i),
}));

void runDemo({
  name: 'asterisk',
  flags: { rate: '6' },
  token: { name: 'supervisor', permissions: ['calls:read', 'calls:write', 'calls:control'] },
  reportEveryMs: 15_000,
  stopping: 'the call center, the service, the double of ARI',
  setUp: async (flags) => {
    const rate = callsPerMinute(flags.rate);
    const endpoints = agents.map(endpointOf);
    const double = await AriDouble.start({ username: ARI_USER, password: ARI_PASSWORD, endpoints });
    return {
      intro: [
        '  Callboard is running over the Asterisk provider, against a double of Asterisk\'s REST Interface',
        `  (ARI) on this machine (${double.url}); no Asterisk is used. Calls arrive over ARI's event WebSocket.`,
      ],
      provider: () => asteriskProviderConfig({ ariURL: double.url, agents }),
      startCalls: () => {
        const center = startAsteriskCallCenter({ double, endpoints, callsPerMinute: rate });
        return {
          about: [
            `  About ${rate} customer calls a minute to ${agents.length} agents (PJSIP/101 to PJSIP/${100 + agents.length}).`,
            '  Click-to-call rings an agent\'s phone, then the dialplan dials the customer. Ctrl-C stops everything.',
          ],
          report: () => {
            const stats = center.stats();
            return `offered ${stats.offered}   answered ${stats.answered}   abandoned ${stats.abandoned}   requests to ARI ${double.requests.length}   events ${double.events.length}`;
          },
          stop: () => center.stop(),
        };
      },
      stop: () => double.stop(),
    };
  },
});
