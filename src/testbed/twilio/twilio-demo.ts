/**
 * `npm run demo:twilio`: the dashboard over the Twilio provider without a Twilio account. Starts the
 * double of Twilio's API with a small call center running on it, and the built service with a
 * Twilio provider pointed at the double, whose signed status callbacks reach the service's webhook.
 * Ctrl-C stops both.
 */
import { paths } from '../../contract/paths.js';
import { AGENT_NAMES, callsPerMinute, runDemo } from '../run-demo.js';
import { startTwilioCallCenter } from './twilio-call-center.js';
import { TwilioDouble } from './twilio-double.js';
import { TEST_ACCOUNT_SID, TEST_AUTH_TOKEN, TEST_NUMBER, twilioProviderConfig, type TwilioAgentSpec } from './twilio-testbed.js';

const agents: TwilioAgentSpec[] = AGENT_NAMES.map(([first, last], i) => ({
  subscriberID: `agt-${first.toLowerCase()}`,
  firstName: first,
  lastName: last,
  extension: String(101 + i),
  device: `client:${first.toLowerCase()}`,
}));

void runDemo({
  name: 'twilio',
  flags: { rate: '5' },
  token: { name: 'demo', permissions: ['calls:read', 'calls:write'] },
  reportEveryMs: 15_000,
  stopping: 'the call center, the service, the double of Twilio',
  setUp: async (flags) => {
    const rate = callsPerMinute(flags.rate);
    const double = await TwilioDouble.start({ accountSid: TEST_ACCOUNT_SID, authToken: TEST_AUTH_TOKEN });
    return {
      intro: [
        '  Callboard is running over the Twilio provider, against a double of Twilio\'s API on this machine',
        `  (${double.url}); no Twilio account is used. Status callbacks are signed as Twilio signs them.`,
      ],
      provider: (serviceURL) => twilioProviderConfig({ apiBaseURL: double.url, webhookBaseURL: serviceURL, agents }),
      startCalls: ({ url, scope, provider }) => {
        const center = startTwilioCallCenter({
          double,
          number: `+${TEST_NUMBER}`,
          devices: agents.map((agent) => agent.device),
          webhookURL: `${url}${paths.webhook(provider.type, scope)}`,
          callsPerMinute: rate,
        });
        return {
          about: [
            `  About ${rate} customer calls a minute to ${agents.length} agents. Click-to-call rings an agent's device, then the customer.`,
            '  Ctrl-C stops everything.',
          ],
          report: () => {
            const stats = center.stats();
            return `live ${stats.live}   offered ${stats.offered}   abandoned ${stats.abandoned}   requests to Twilio ${double.requests.length}   callbacks ${double.sentCallbacks.length}`;
          },
          stop: () => center.stop(),
        };
      },
      stop: () => double.close(),
    };
  },
});
