/**
 * A real OpenID provider on this machine (oidc-provider, a certified implementation) for the tests
 * and `npm run demo:sso`: its own sign-in page (any password), the people given, each with an
 * email, a name and groups in the ID token, and the service as its one client. Consent is taken as
 * given for that client, as a company's provider does for its own applications.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type OidcContext } from 'oidc-provider';

export interface DemoPerson {
  /** What one types in the provider's sign-in page; also the subject. */
  login: string;
  email: string;
  name: string;
  groups: string[];
}

export interface IdentityProviderOptions {
  people: readonly DemoPerson[];
  clientID: string;
  clientSecret: string;
  /** The service's callback, and where it may send people after signing out there. */
  redirectURIs: string[];
  postLogoutRedirectURIs: string[];
  port?: number;
  /** Seconds an ID token is valid (an hour by default). */
  idTokenTTL?: number;
}

export interface RunningIdentityProvider {
  readonly issuer: string;
  readonly port: number;
  close(): Promise<void>;
}

const SCOPES = 'openid email profile groups';

export const startIdentityProvider = async (options: IdentityProviderOptions): Promise<RunningIdentityProvider> => {
  const server: Server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const issuer = `http://127.0.0.1:${port}`;
  const people = new Map(options.people.map((person) => [person.login, person]));
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: options.clientID,
        client_secret: options.clientSecret,
        redirect_uris: options.redirectURIs,
        post_logout_redirect_uris: options.postLogoutRedirectURIs,
        response_types: ['code'],
        grant_types: ['authorization_code'],
      },
    ],
    async findAccount(_ctx: unknown, id: string) {
      const person = people.get(id);
      if (!person) return undefined;
      return {
        accountId: id,
        claims: async () => ({ sub: id, email: person.email, email_verified: true, name: person.name, groups: person.groups }),
      };
    },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'], groups: ['groups'] },
    scopes: SCOPES.split(' '),
    // The claims go in the ID token itself, where the service reads them.
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    features: { devInteractions: { enabled: true }, rpInitiatedLogout: { enabled: true } },
    ttl: { IdToken: options.idTokenTTL ?? 3600 },
    cookies: { keys: ['callboard-test-identity-provider'] },
    async loadExistingGrant(ctx: OidcContext) {
      const { client, session, result, provider: self } = ctx.oidc;
      if (!client || !session?.accountId) return undefined;
      const grantID = result?.consent?.grantId ?? session.grantIdFor(client.clientId);
      if (grantID) return self.Grant.find(grantID);
      const grant = new self.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope(SCOPES);
      await grant.save();
      return grant;
    },
  });
  server.on('request', provider.callback());
  return {
    issuer,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};

/** The demo's people: one of each role, the supervisor and analyst of the Support queue. */
export const DEMO_PEOPLE: readonly DemoPerson[] = [
  { login: 'supervisor', email: 'sam.supervisor@example.com', name: 'Sam Okafor', groups: ['cc-support-leads'] },
  { login: 'agent', email: 'ada.lovelace@example.com', name: 'Ada Lovelace', groups: ['cc-agents'] },
  { login: 'analyst', email: 'ana.analyst@example.com', name: 'Ana Ruiz', groups: ['cc-analysts'] },
  { login: 'admin', email: 'alex.admin@example.com', name: 'Alex Admin', groups: ['cc-admins'] },
  { login: 'nobody', email: 'no.role@example.com', name: 'Noel Norole', groups: ['everyone'] },
];

/** The groups of `DEMO_PEOPLE` mapped to roles, as a config's `auth.oidc.roles`. */
export const demoRoleMappings = (supportQueue: string) => [
  { group: 'cc-support-leads', role: 'supervisor', queues: [supportQueue] },
  { group: 'cc-agents', role: 'agent' },
  { group: 'cc-analysts', role: 'analyst', queues: [supportQueue] },
  { group: 'cc-admins', role: 'admin' },
];
