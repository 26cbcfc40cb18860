/**
 * Signing people in against a real OpenID provider (oidc-provider) and a crafted one, and what
 * each role may then see and do. Every protection the issue lists has a test here that fails
 * without it: replayed state, nonce and code; an ID token of another issuer or audience, or
 * expired; an open redirect; session fixation; CSRF on every state-changing route; cookie flags;
 * sign-out and revocation seen by another instance; each role's scope through the API, the stream
 * and exports; a role mapping that names an unknown queue.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { meResponseSchema } from '../../contract/me.js';
import { paths } from '../../contract/paths.js';
import { authPaths, sessionListResponseSchema, sessionResponseSchema, type Role } from '../../contract/session.js';
import { buildApp } from '../app.js';
import { ManualClock } from '../clock.js';
import { serviceConfigSchema, type ServiceConfigInput } from '../config/config-schema.js';
import type { HistoryStore } from '../history/history-store.js';
import { cookieNames } from '../http/cookies.js';
import { startCraftedIdentityProvider, type CraftedIdentityProvider } from '../test-support/crafted-identity-provider.js';
import { providerCall } from '../test-support/provider-call.js';
import { ScriptedPhoneSystem } from '../test-support/scripted-phone-system.js';
import { cookieLine, cookieSet, finishSignIn, loginAtProvider, startSignIn } from '../test-support/sign-in-flow.js';
import { openStream } from '../test-support/stream-client.js';
import { createTestHistory, type TestHistory } from '../test-support/test-history.js';
import { T0 } from '../test-support/test-app.js';
import { RECHECK_MS } from './session-manager.js';
import { startIdentityProvider, type RunningIdentityProvider } from '../../testbed/sso/identity-provider.js';

const PUBLIC_URL = 'http://127.0.0.1:8199';
const ORIGIN = PUBLIC_URL;
const CALLBACK = `${PUBLIC_URL}/auth/callback`;
const CLIENT = { id: 'callboard', secret: 'callboard-test-secret-0123456789' };
const names = cookieNames(false);
const scope = { accountID: 'acme', applicationID: 'desk', providerID: 'pbx' };
const SERVICE_TOKEN = 'acme-service-token-0123456789';

const PEOPLE = [
  { login: 'sup', email: 'sam@acme.example', name: 'Sam Lead', groups: ['support-leads'] },
  { login: 'ada', email: 'Ada@Acme.example', name: 'Ada Agent', groups: ['agents'] },
  { login: 'bob', email: 'bob@acme.example', name: 'Bob Agent', groups: ['agents'] },
  { login: 'ana', email: 'ana@acme.example', name: 'Ana Analyst', groups: ['sales-analysts'] },
  { login: 'root', email: 'root@acme.example', name: 'Root Admin', groups: ['admins'] },
  { login: 'nobody', email: 'nobody@acme.example', name: 'No Role', groups: ['everyone'] },
  { login: 'ghost', email: 'ghost@acme.example', name: 'Ghost Agent', groups: ['agents'] },
  // Supervises Support, and reads every queue as an analyst: sees all, ends calls in Support only.
  { login: 'mix', email: 'mix@acme.example', name: 'Max Mixed', groups: ['support-leads', 'all-analysts'] },
  // An agent who also reads every queue: sees all, places calls as their own subscriber only.
  { login: 'ada-reads', email: 'ada@acme.example', name: 'Ada Reads', groups: ['agents', 'all-analysts'] },
];

const ROLES: { group: string; role: Role; queues?: string[] }[] = [
  { group: 'support-leads', role: 'supervisor', queues: ['support'] },
  { group: 'agents', role: 'agent' },
  { group: 'sales-analysts', role: 'analyst', queues: ['sales'] },
  { group: 'all-analysts', role: 'analyst' },
  { group: 'admins', role: 'admin' },
];

const configFor = (issuer: string, publicURL = PUBLIC_URL): ServiceConfigInput => ({
  accounts: [
    {
      id: 'acme',
      name: 'Acme',
      applications: [
        {
          id: 'desk',
          name: 'Desk',
          providers: [
            {
              id: 'pbx',
              name: 'Acme PBX',
              type: 'simulator',
              queues: [
                { id: 'support', name: 'Support', providerQueues: ['support-q'], members: ['agt-1', 'agt-2'] },
                { id: 'sales', name: 'Sales', providerQueues: ['sales-q'], members: ['agt-2'] },
              ],
            },
          ],
        },
      ],
      tokens: [
        { name: 'service', token: SERVICE_TOKEN, applications: '*', permissions: ['calls:read', 'calls:write', 'calls:control'] },
      ],
    },
  ],
  auth: {
    publicURL,
    oidc: {
      issuer,
      clientID: CLIENT.id,
      clientSecret: CLIENT.secret,
      scopes: ['openid', 'email', 'profile', 'groups'],
      roles: ROLES,
    },
    sessions: { idleMinutes: 30, lifetimeHours: 8 },
  },
});

const subscriber = (id: string, email: string) => ({
  providerSubscriberID: id,
  firstName: id,
  lastName: 'Agent',
  email,
  extension: id.slice(4),
  number: `1555000${id.slice(4)}`,
  registered: true,
  active: true,
});

/** Calls of every kind of visibility: each queue's, an agent's direct one, another's. */
const CALLS = [
  providerCall('support-ada', T0 - 60_000, { queueID: 'support', subscriberID: 'agt-1', answeredAt: T0 - 50_000 }),
  providerCall('support-bob', T0 - 40_000, { queueID: 'support', subscriberID: 'agt-2', answeredAt: T0 - 30_000 }),
  providerCall('sales-bob', T0 - 30_000, { queueID: 'sales', subscriberID: 'agt-2', answeredAt: T0 - 20_000 }),
  providerCall('direct-ada', T0 - 20_000, { subscriberID: 'agt-1', answeredAt: T0 - 10_000 }),
  providerCall('direct-bob', T0 - 10_000, { subscriberID: 'agt-2', answeredAt: T0 - 5_000 }),
];

interface Instance {
  app: FastifyInstance;
  store: HistoryStore;
  phone: ScriptedPhoneSystem;
}

const startInstance = async (
  history: TestHistory,
  issuer: string,
  clock: ManualClock,
  publicURL = PUBLIC_URL,
): Promise<Instance> => {
  const store = await history.open();
  const phone = new ScriptedPhoneSystem();
  phone.subscribers = [subscriber('agt-1', 'ada@acme.example'), subscriber('agt-2', 'bob@acme.example')];
  phone.calls = CALLS.map((call) => ({ ...call }));
  phone.endCall = async () => undefined;
  const app = await buildApp({
    config: serviceConfigSchema.parse(configFor(issuer, publicURL)),
    history: store,
    clock,
    autoSync: false,
    createPhoneSystem: () => phone,
  });
  await app.ready();
  await app.providers.syncAll();
  return { app, store, phone };
};

describe('signing in with a real OpenID provider', () => {
  let idp: RunningIdentityProvider;
  let history: TestHistory;
  let clock: ManualClock;
  let one: Instance;
  let two: Instance;

  beforeAll(async () => {
    idp = await startIdentityProvider({
      people: PEOPLE,
      clientID: CLIENT.id,
      clientSecret: CLIENT.secret,
      redirectURIs: [CALLBACK],
      postLogoutRedirectURIs: [`${PUBLIC_URL}/sign-in?signedOut=1`],
    });
    history = await createTestHistory();
    clock = new ManualClock(T0);
    // Two instances on one database: what one does to a session, the other sees.
    one = await startInstance(history, idp.issuer, clock);
    two = await startInstance(history, idp.issuer, clock);
  }, 60_000);

  afterAll(async () => {
    await one?.app.close();
    await two?.app.close();
    await history?.dispose();
    await idp?.close();
  });

  const signIn = async (login: string, returnTo?: string, app = one.app) => {
    const started = await startSignIn(app, names.signIn, returnTo);
    const callback = await loginAtProvider(started.authorizationURL, login, CALLBACK);
    const response = await finishSignIn(app, callback, `${names.signIn}=${started.signInCookie}`);
    return { started, callback, response, session: cookieSet(response, names.session) };
  };

  const asPerson = (session: string, app = one.app) => ({
    get: (url: string) => app.inject({ method: 'GET', url, headers: { cookie: `${names.session}=${session}` } }),
    send: (method: 'POST' | 'PUT' | 'DELETE', url: string, headers: Record<string, string> = {}, payload?: unknown) =>
      app.inject({
        method,
        url,
        headers: { cookie: `${names.session}=${session}`, ...headers },
        ...(payload === undefined ? {} : { payload: payload as string }),
      }),
  });

  const csrfOf = async (session: string) => {
    const answer = sessionResponseSchema.parse((await asPerson(session).get(authPaths.session())).json());
    if (!answer.signedIn) throw new Error('not signed in');
    return answer.csrfToken;
  };

  it('signs each role in and lands them where their work is', async () => {
    const landings = Object.fromEntries(
      await Promise.all(
        ['sup', 'ada', 'ana', 'root'].map(async (login) => [login, (await signIn(login)).response.headers.location]),
      ),
    );
    expect(landings).toEqual({ sup: '/', ada: '/desk', ana: '/reports', root: '/' });
    const { session } = await signIn('sup');
    const answer = sessionResponseSchema.parse((await asPerson(session as string).get(authPaths.session())).json());
    expect(answer).toMatchObject({
      signedIn: true,
      person: { subject: 'sup', email: 'sam@acme.example', name: 'Sam Lead' },
      roles: ['supervisor'],
      idleTimeoutSeconds: 1800,
    });
  });

  it('returns to the page asked for, and never off the site', async () => {
    expect((await signIn('sup', '/wallboard?theme=dark')).response.headers.location).toBe('/wallboard?theme=dark');
    for (const returnTo of ['https://evil.example/', '//evil.example/x', '/\\evil.example', 'javascript:alert(1)']) {
      const refused = await one.app.inject({ method: 'GET', url: authPaths.signIn(returnTo) });
      expect(refused.statusCode, returnTo).toBe(400);
      expect(refused.json()).toMatchObject({ code: 'invalid_request', errors: [{ field: 'returnTo' }] });
    }
  });

  it('refuses a person whose groups map to no role, and an agent who is no subscriber', async () => {
    for (const [login, problem] of [
      ['nobody', 'no_role'],
      ['ghost', 'no_subscriber'],
    ] as const) {
      const { response, session } = await signIn(login);
      expect(response.headers.location, login).toBe(`/sign-in?problem=${problem}`);
      expect(session, login).toBeUndefined();
    }
  });

  it('refuses a replayed callback (its state is taken once), and a code replayed under a new state', async () => {
    const first = await signIn('ada');
    expect(first.session).toBeDefined();
    const replayed = await finishSignIn(one.app, first.callback, `${names.signIn}=${first.started.signInCookie}`);
    expect(replayed.headers.location).toBe('/sign-in?problem=expired');
    expect(cookieSet(replayed, names.session) || undefined).toBeUndefined();

    const again = await startSignIn(one.app, names.signIn);
    const code = first.callback.searchParams.get('code') as string;
    const reused = new URL(
      `${CALLBACK}?code=${encodeURIComponent(code)}&state=${again.state}&iss=${encodeURIComponent(idp.issuer)}`,
    );
    const refused = await finishSignIn(one.app, reused, `${names.signIn}=${again.signInCookie}`);
    expect(refused.headers.location).toBe('/sign-in?problem=failed');
    expect(cookieSet(refused, names.session) || undefined).toBeUndefined();
  });

  it('refuses a callback in a browser that did not start the sign-in', async () => {
    const started = await startSignIn(one.app, names.signIn);
    const callback = await loginAtProvider(started.authorizationURL, 'ada', CALLBACK);
    const elsewhere = await finishSignIn(one.app, callback, `${names.signIn}=another-browsers-state`);
    expect(elsewhere.headers.location).toBe('/sign-in?problem=expired');
  });

  it('gives a new session at sign-in, ending any the browser brought (no fixation)', async () => {
    const planted = (await signIn('bob')).session as string;
    const started = await startSignIn(one.app, names.signIn);
    const callback = await loginAtProvider(started.authorizationURL, 'ada', CALLBACK);
    const response = await finishSignIn(
      one.app,
      callback,
      `${names.signIn}=${started.signInCookie}; ${names.session}=${planted}`,
    );
    const fresh = cookieSet(response, names.session) as string;
    expect(fresh).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(fresh).not.toBe(planted);
    expect((await asPerson(planted).get(paths.me())).statusCode).toBe(401);
    expect(meResponseSchema.parse((await asPerson(fresh).get(paths.me())).json()).person?.subject).toBe('ada');
  });

  it("sets the session cookie httpOnly, SameSite=Lax, for the whole site, for the session's lifetime", async () => {
    const { response } = await signIn('sup');
    const line = cookieLine(response, names.session) as string;
    expect(line.split('; ').slice(1).sort()).toEqual(['HttpOnly', 'Max-Age=28800', 'Path=/', 'SameSite=Lax']);
  });

  it('refuses every state-changing route of a session without the CSRF token or from another origin', async () => {
    const session = (await signIn('root')).session as string;
    const csrf = await csrfOf(session);
    const unsafe = one.app.routeCatalog
      .documented()
      .filter(
        (entry) =>
          ['POST', 'PUT', 'PATCH', 'DELETE'].includes(entry.method) &&
          entry.url.startsWith('/v1/') &&
          !entry.url.startsWith('/v1/webhooks/'),
      );
    expect(unsafe.length).toBeGreaterThanOrEqual(5);
    for (const entry of unsafe) {
      const url = entry.url
        .replace(':accountID', scope.accountID)
        .replace(':applicationID', scope.applicationID)
        .replace(':providerID', scope.providerID)
        .replace(/:[A-Za-z]+/g, 'x');
      const method = entry.method as 'POST' | 'PUT' | 'DELETE';
      const withoutToken = await asPerson(session).send(method, url, { origin: ORIGIN });
      expect([withoutToken.statusCode, withoutToken.json().code], `${method} ${url} without the token`).toEqual([
        403,
        'csrf_failed',
      ]);
      const otherOrigin = await asPerson(session).send(method, url, { origin: 'https://evil.example', 'x-csrf-token': csrf });
      expect([otherOrigin.statusCode, otherOrigin.json().code], `${method} ${url} from another origin`).toEqual([
        403,
        'csrf_failed',
      ]);
      const wrongToken = await asPerson(session).send(method, url, { origin: ORIGIN, 'x-csrf-token': `${csrf}x` });
      expect(wrongToken.statusCode, `${method} ${url} with a wrong token`).toBe(403);
    }
    const signOut = await asPerson(session).send('POST', authPaths.signOut(), { origin: ORIGIN });
    expect(signOut.statusCode).toBe(403);
    // Another site's link or form (a top-level GET of an export, say) is refused by its Fetch Metadata.
    const crossSite = await asPerson(session).send('DELETE', paths.call(scope, 'support-bob'), { origin: ORIGIN, 'x-csrf-token': csrf, 'sec-fetch-site': 'cross-site' });
    expect([crossSite.statusCode, crossSite.json().code]).toEqual([403, 'csrf_failed']);
    const linked = await one.app.inject({ method: 'GET', url: `${paths.callExport(scope)}?fromDate=2026-11-21&toDate=2026-11-23`, headers: { cookie: `${names.session}=${session}`, 'sec-fetch-site': 'cross-site' } });
    expect([linked.statusCode, linked.json().code]).toEqual([403, 'csrf_failed']);
    // With both, the same request goes through: the check is what refused it.
    const ended = await asPerson(session).send('DELETE', paths.call(scope, 'support-bob'), {
      origin: ORIGIN,
      'x-csrf-token': csrf,
    });
    expect(ended.statusCode).toBe(204);
  });

  it('shows an agent their own calls only, through the list, the stream and exports, and lets them call as themselves only', async () => {
    const ada = asPerson((await signIn('ada')).session as string);
    const me = meResponseSchema.parse((await ada.get(paths.me())).json());
    expect(me).toMatchObject({
      roles: ['agent'],
      subscriberIDs: ['agt-1'],
      queueIDs: [],
      permissions: ['calls:read', 'calls:write'],
    });
    const list = (await ada.get(paths.listCalls(scope))).json() as { calls: { callID: string }[] };
    expect(list.calls.map((call) => call.callID).sort()).toEqual(['direct-ada', 'support-ada']);
    expect((await ada.get(`${paths.listCalls(scope)}?queueID=sales`)).statusCode).toBe(404);
    expect((await ada.get(`${paths.listCalls(scope)}?queueID=none`)).statusCode).toBe(404);
    const agents = (await ada.get(paths.agents(scope))).json() as { agents: { subscriberID: string }[] };
    expect(agents.agents.map((agent) => agent.subscriberID)).toEqual(['agt-1']);
    const subscribers = (await ada.get(paths.subscribers(scope))).json() as { subscribers: { providerSubscriberID: string }[] };
    expect(subscribers.subscribers.map((s) => s.providerSubscriberID)).toEqual(['agt-1']);
    expect((await ada.get(`${paths.callExport(scope)}?fromDate=2026-11-21&toDate=2026-11-23`)).statusCode).toBe(403);
  });

  it('shows a supervisor their queues only, and lets them end those calls and no other', async () => {
    const session = (await signIn('sup')).session as string;
    const sup = asPerson(session);
    const csrf = await csrfOf(session);
    const list = (await sup.get(paths.listCalls(scope))).json() as { calls: { callID: string }[] };
    expect(list.calls.map((call) => call.callID).sort()).toEqual(['support-ada', 'support-bob']);
    expect((await sup.get(`${paths.listCalls(scope)}?queueID=sales`)).json()).toMatchObject({ code: 'not_found' });
    const queues = (await sup.get(paths.queues(scope))).json() as { queues: { queueID: string }[]; unqueued?: unknown };
    expect(queues.queues.map((queue) => queue.queueID)).toEqual(['support']);
    expect(queues.unqueued).toBeUndefined();
    const endSales = await sup.send('DELETE', paths.call(scope, 'sales-bob'), { origin: ORIGIN, 'x-csrf-token': csrf });
    expect(endSales.json()).toMatchObject({ code: 'call_not_found' });
    const endSupport = await sup.send('DELETE', paths.call(scope, 'support-ada'), { origin: ORIGIN, 'x-csrf-token': csrf });
    expect(endSupport.statusCode).toBe(204);
    const audit = await one.store.callActions(scope, 'support-ada');
    expect(audit).toEqual([
      expect.objectContaining({
        action: 'end',
        actor: 'sam@acme.example',
        actorSubject: 'sup',
        actorEmail: 'sam@acme.example',
        outcome: 'done',
      }),
    ]);
    expect((await sup.get(`${paths.callExport(scope)}?fromDate=2026-11-21&toDate=2026-11-23`)).statusCode).toBe(403);
  });

  it('gives control only where a person supervises, whatever else they may read', async () => {
    await one.app.providers.syncAll();
    const session = (await signIn('mix')).session as string;
    const mix = asPerson(session);
    const csrf = await csrfOf(session);
    const list = (await mix.get(paths.listCalls(scope))).json() as { calls: { callID: string }[] };
    expect(list.calls.map((call) => call.callID)).toContain('sales-bob');
    const sales = await mix.send('DELETE', paths.call(scope, 'sales-bob'), { origin: ORIGIN, 'x-csrf-token': csrf });
    expect([sales.statusCode, sales.json().code]).toEqual([403, 'forbidden']);
    expect((await mix.send('DELETE', paths.call(scope, 'support-bob'), { origin: ORIGIN, 'x-csrf-token': csrf })).statusCode).toBe(204);
  });

  it('lets an agent who reads every queue still place calls as themselves, and only as themselves', async () => {
    one.phone.subscribers = [subscriber('agt-1', 'ada@acme.example'), subscriber('agt-2', 'bob@acme.example')];
    const session = (await signIn('ada-reads')).session as string;
    const ada = asPerson(session);
    const csrf = await csrfOf(session);
    const call = (as: string) =>
      ada.send('POST', paths.makeCall(scope), { origin: ORIGIN, 'x-csrf-token': csrf, 'content-type': 'application/json' }, JSON.stringify({ providerSubscriberID: as, remoteNumber: '15555550123' }));
    expect((await call('agt-1')).statusCode).toBe(204);
    expect((await call('agt-2')).json()).toMatchObject({ code: 'subscriber_not_allowed' });
    const placed = (await one.store.callActions(scope, '')).filter((action) => action.action === 'place');
    expect(placed.at(-1)).toMatchObject({ actor: 'ada@acme.example', actorSubject: 'ada-reads', outcome: 'done', detail: 'as subscriber agt-1 to 15555550123' });
  });

  it("lets an analyst export their queues' calls only, and names them in the audit", async () => {
    const ana = asPerson((await signIn('ana')).session as string);
    const file = await ana.get(`${paths.callExport(scope)}?fromDate=2026-11-21&toDate=2026-11-23&format=ndjson`);
    expect(file.statusCode).toBe(200);
    const ids = file.body
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { callID: string }).callID);
    expect(ids).toEqual(['sales-bob']);
    expect((await ana.get(`${paths.callExport(scope)}?fromDate=2026-11-21&toDate=2026-11-23&queueID=support`)).statusCode).toBe(
      404,
    );
    const audit = await one.store.callActions(scope, '');
    expect(audit.filter((action) => action.action === 'export').at(-1)).toMatchObject({
      actor: 'ana@acme.example',
      actorSubject: 'ana',
      outcome: 'done',
    });
  });

  it("cuts a supervisor's and an agent's streams down to what they may see", async () => {
    await one.app.listen({ port: 0, host: '127.0.0.1' });
    const address = one.app.server.address() as { port: number };
    const url = `http://127.0.0.1:${address.port}${paths.callStream(scope)}?providers=pbx&include=agents,queues`;
    const seen: Record<string, unknown> = {};
    for (const login of ['sup', 'ada']) {
      const stream = await openStream(url, { cookie: `${names.session}=${(await signIn(login)).session}` });
      const snapshot = JSON.parse((await stream.next((event) => event.event === 'snapshot')).data) as {
        calls: { callID: string }[];
      };
      const agents = JSON.parse((await stream.next((event) => event.event === 'agents')).data) as {
        agents: { subscriberID: string }[];
      };
      const queues = JSON.parse((await stream.next((event) => event.event === 'queues')).data) as {
        queues: { queueID: string }[];
        unqueued?: unknown;
      };
      seen[login] = {
        calls: snapshot.calls.map((call) => call.callID).sort(),
        agents: agents.agents.map((agent) => agent.subscriberID),
        queues: queues.queues.map((queue) => queue.queueID),
        unqueued: queues.unqueued !== undefined,
      };
      stream.close();
    }
    // Resumed, a cut stream starts again from its snapshot: what it sent before went with the old connection.
    const first = await openStream(url, { cookie: `${names.session}=${(await signIn('sup')).session}` });
    const cursor = (await first.next((event) => event.event === 'queues')).id as string;
    first.close();
    const resumed = await openStream(url, { cookie: `${names.session}=${(await signIn('sup')).session}`, 'last-event-id': cursor });
    const again = JSON.parse((await resumed.next((event) => event.event === 'snapshot')).data) as { calls: { callID: string }[] };
    expect(again.calls.map((call) => call.callID).sort()).toEqual(['support-ada', 'support-bob']);
    resumed.close();
    expect(seen).toEqual({
      sup: { calls: ['support-ada', 'support-bob'], agents: ['agt-1', 'agt-2'], queues: ['support'], unqueued: false },
      ada: { calls: ['direct-ada', 'support-ada'], agents: ['agt-1'], queues: [], unqueued: false },
    });
  });

  it('ends a session at every instance within a second of its sign-out, and its streams with it', async () => {
    const session = (await signIn('sup')).session as string;
    expect((await asPerson(session, two.app).get(paths.me())).statusCode).toBe(200);
    await two.app.listen({ port: 0, host: '127.0.0.1' });
    const address = two.app.server.address() as { port: number };
    const stream = await openStream(`http://127.0.0.1:${address.port}${paths.callStream(scope)}?providers=pbx`, {
      cookie: `${names.session}=${session}`,
    });
    await stream.next((event) => event.event === 'snapshot');
    const signedOut = await asPerson(session).send('POST', authPaths.signOut(), {
      origin: ORIGIN,
      'x-csrf-token': await csrfOf(session),
    });
    expect(signedOut.json()).toMatchObject({ redirectTo: expect.stringContaining(`${idp.issuer}/session/end`) });
    expect(cookieLine(signedOut, names.session)).toContain('Max-Age=0');
    const endedAt = Date.now();
    await stream.ended;
    expect(Date.now() - endedAt).toBeLessThan(1000 + RECHECK_MS);
    clock.advance(RECHECK_MS);
    expect((await asPerson(session, two.app).get(paths.me())).statusCode).toBe(401);
    // A session that was real and ended is no guess: a shift's tabs behind one address get 401s, never 429s.
    const answers = await Promise.all(Array.from({ length: 40 }, () => asPerson(session, two.app).get(paths.me())));
    expect(new Set(answers.map((answer) => answer.statusCode))).toEqual(new Set([401]));
  });

  it('lets an admin list and revoke sessions, seen at the other instance within a second', async () => {
    const root = (await signIn('root')).session as string;
    const victim = (await signIn('bob')).session as string;
    expect((await asPerson(victim, two.app).get(paths.me())).statusCode).toBe(200);
    const listed = sessionListResponseSchema.parse((await asPerson(root).get(authPaths.sessions())).json());
    const bob = listed.sessions.find((session) => session.person.subject === 'bob');
    expect(bob).toBeDefined();
    const revoked = await asPerson(root).send('DELETE', authPaths.revokeSession(bob?.sessionID as string), {
      origin: ORIGIN,
      'x-csrf-token': await csrfOf(root),
    });
    expect(revoked.statusCode).toBe(204);
    clock.advance(RECHECK_MS);
    expect((await asPerson(victim, two.app).get(paths.me())).statusCode).toBe(401);
    const bobAsAdmin = await asPerson(victim).get(authPaths.sessions());
    expect(bobAsAdmin.statusCode).toBe(401);
    const supList = await asPerson((await signIn('sup')).session as string).get(authPaths.sessions());
    expect(supList.json()).toMatchObject({ code: 'forbidden' });
  });

  it('ends a session after its idle time, and keeps one in use going', async () => {
    const busy = (await signIn('sup')).session as string;
    const idle = (await signIn('ana')).session as string;
    for (let minute = 0; minute < 40; minute += 5) {
      clock.advance(5 * 60_000);
      expect((await asPerson(busy).get(paths.me())).statusCode, `after ${minute + 5} min`).toBe(200);
    }
    expect((await asPerson(idle).get(paths.me())).statusCode).toBe(401);
  });

  it('still takes API tokens, unchanged', async () => {
    await one.app.providers.syncAll();
    const answer = await one.app.inject({
      method: 'GET',
      url: paths.listCalls(scope),
      headers: { authorization: `Bearer ${SERVICE_TOKEN}` },
    });
    expect(answer.statusCode).toBe(200);
    expect(
      meResponseSchema.parse(
        (await one.app.inject({ method: 'GET', url: paths.me(), headers: { authorization: `Bearer ${SERVICE_TOKEN}` } })).json(),
      ).person,
    ).toBeUndefined();
  });
});

describe('checking the ID token', () => {
  let idp: CraftedIdentityProvider;
  let history: TestHistory;
  let instance: Instance;

  beforeAll(async () => {
    idp = await startCraftedIdentityProvider(CLIENT.id);
    history = await createTestHistory();
    instance = await startInstance(history, idp.issuer, new ManualClock(T0));
  });

  afterAll(async () => {
    await instance?.app.close();
    await history?.dispose();
    await idp?.close();
  });

  const attempt = async (flaw: Parameters<CraftedIdentityProvider['next']>[0]) => {
    const started = await startSignIn(instance.app, names.signIn);
    idp.next(flaw, started.authorizationURL.searchParams.get('nonce') as string, {
      sub: 'sup',
      email: 'sam@acme.example',
      groups: ['support-leads'],
    });
    const response = await finishSignIn(
      instance.app,
      new URL(`${CALLBACK}?code=any&state=${started.state}`),
      `${names.signIn}=${started.signInCookie}`,
    );
    return { location: response.headers.location, session: cookieSet(response, names.session) || undefined };
  };

  it.each(['other-issuer', 'other-audience', 'expired', 'other-nonce', 'other-key'] as const)('refuses an ID token with %s', async (flaw) => {
    expect(await attempt(flaw)).toEqual({ location: '/sign-in?problem=failed', session: undefined });
  });

  it('takes the same ID token made right (so each refusal above is the check at work)', async () => {
    const { location, session } = await attempt('none');
    expect(location).toBe('/');
    expect(session).toBeDefined();
  });
});

describe('the auth config', () => {
  it('refuses a role mapping that names an unknown queue, saying where it is', () => {
    const config = configFor('https://login.example.com');
    const auth = config.auth as NonNullable<ServiceConfigInput['auth']>;
    const parsed = serviceConfigSchema.safeParse({
      ...config,
      auth: {
        ...auth,
        oidc: { ...auth.oidc, roles: [...ROLES, { group: 'x', role: 'supervisor', queues: ['support', 'returns'] }] },
      },
    });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues).toEqual([
      expect.objectContaining({
        path: ['auth', 'oidc', 'roles', 5, 'queues', 1],
        message: 'no queue "returns" in account "acme": its queues are sales, support',
      }),
    ]);
  });

  it('refuses a plain-http identity provider off this machine', () => {
    const parsed = serviceConfigSchema.safeParse(configFor('http://login.example.com'));
    expect(parsed.error?.issues[0]).toMatchObject({ path: ['auth', 'oidc', 'issuer'] });
  });

  it('marks cookies Secure with the __Host- prefix behind https', async () => {
    const idp = await startCraftedIdentityProvider(CLIENT.id);
    const history = await createTestHistory();
    const instance = await startInstance(history, idp.issuer, new ManualClock(T0), 'https://board.acme.example');
    try {
      const response = await instance.app.inject({ method: 'GET', url: authPaths.signIn() });
      expect(cookieLine(response, '__Host-callboard-sign-in')).toMatch(/; Secure/);
    } finally {
      await instance.app.close();
      await history.dispose();
      await idp.close();
    }
  });
});
