/**
 * `npm run demo:sso`: the dashboard with people signing in through an OpenID provider on this
 * machine (oidc-provider), over the built-in simulator: a supervisor and an analyst of the Support
 * queue, an agent (whose email is one of the simulator's subscribers'), an admin, and someone with
 * no Callboard role. `npm start`'s one-click token link is not offered here: people sign in.
 * Ctrl-C stops both.
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { paths } from '../../contract/paths.js';
import { SIGNED_OUT_PAGE } from '../../contract/session.js';
import { listSubscribersResponseSchema } from '../../contract/subscriber.js';
import { demoConfigInput } from '../../server/config/load-config.js';
import { startBuiltService, type BuiltService } from '../built-service.js';
import { freePort } from '../free-ports.js';
import { DEMO_PEOPLE, demoRoleMappings, startIdentityProvider, type RunningIdentityProvider } from './identity-provider.js';

const print = (line = '') => process.stdout.write(`${line}\n`);
const scope = { accountID: 'demo', applicationID: 'support', providerID: 'pbx-main' };
/** The simulator's subscriber the demo's agent signs in as: a member of the Support queue. */
const AGENT_SUBSCRIBER = 'agt-0002';

const { values } = parseArgs({ options: { port: { type: 'string', default: process.env.PORT ?? '8080' } } });
const port = Number(values.port);
if (!Number.isInteger(port) || port < 1 || port > 65_535) {
  process.stderr.write('sso demo: --port must be a port number\n');
  process.exit(1);
}

let service: BuiltService | undefined;
let idp: RunningIdentityProvider | undefined;
let stopping = false;
const shutdown = async (code: number) => {
  if (stopping) return;
  stopping = true;
  print('\n  Stopping: the service, the identity provider...');
  await service?.stop();
  await idp?.close();
  process.exit(code);
};
process.on('SIGINT', () => void shutdown(0));
process.on('SIGTERM', () => void shutdown(0));

try {
  const url = `http://127.0.0.1:${port}`;
  const idpPort = await freePort();
  const issuer = `http://127.0.0.1:${idpPort}`;
  const token = randomBytes(24).toString('base64url');
  const client = { id: 'callboard-demo', secret: randomBytes(24).toString('base64url') };
  const config = {
    ...demoConfigInput(token, randomBytes(24).toString('base64url')),
    auth: {
      publicURL: url,
      oidc: {
        issuer,
        clientID: client.id,
        clientSecret: client.secret,
        scopes: ['openid', 'email', 'profile', 'groups'],
        label: 'Sign in with Demo Co. (test identity provider)',
        roles: demoRoleMappings('support'),
      },
    },
  };
  service = await startBuiltService({ name: 'sso-demo', config, port });
  // The agent is one of the simulator's people: their email is the one its directory gave them.
  const answer = await fetch(`${url}${paths.subscribers(scope)}`, { headers: { authorization: `Bearer ${token}` } });
  const agent = listSubscribersResponseSchema
    .parse(await answer.json())
    .subscribers.find((s) => s.providerSubscriberID === AGENT_SUBSCRIBER);
  if (!agent) throw new Error(`the simulator has no subscriber ${AGENT_SUBSCRIBER}`);
  const people = DEMO_PEOPLE.map((person) =>
    person.login === 'agent' ? { ...person, email: agent.email, name: `${agent.firstName} ${agent.lastName}` } : person,
  );
  idp = await startIdentityProvider({
    people,
    clientID: client.id,
    clientSecret: client.secret,
    redirectURIs: [`${url}/auth/callback`],
    postLogoutRedirectURIs: [new URL(SIGNED_OUT_PAGE, url).toString()],
    port: idpPort,
  });
  const row = (login: string, what: string) => {
    const person = people.find((p) => p.login === login);
    return `    ${login.padEnd(11)} ${(person?.name ?? '').padEnd(20)} ${what}`;
  };
  for (const line of [
    '',
    `  Callboard is running over the built-in simulator, with sign-in through an OpenID provider on this machine (${issuer}).`,
    '',
    `  Dashboard:  ${url}`,
    '',
    '  Sign in there with one of these logins (any password):',
    row('supervisor', "supervisor of Support: that queue's live view, board and wallboard"),
    row('agent', `agent ${AGENT_SUBSCRIBER} (${agent.email}): My desk`),
    row('analyst', 'analyst of Support: reports and exports'),
    row('admin', 'admin: everything, and the list of sessions'),
    row('nobody', 'no Callboard role: refused, as they should be'),
    '',
    '  API token for machines (unchanged by sign-in):',
    `    curl -H "Authorization: Bearer ${token}" ${url}${paths.listCalls(scope)}`,
    '',
    '  Ctrl-C stops everything.',
    '',
  ])
    print(line);
} catch (error) {
  process.stderr.write(`sso demo: ${(error as Error).message}\n`);
  await shutdown(1);
}
