import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { meResponseSchema } from '../../contract/me.js';
import { paths } from '../../contract/paths.js';
import { problemSchema, type ProblemCode } from '../../contract/problem.js';
import { listenOfferSchema, softphoneCredentialsSchema } from '../../contract/softphone.js';
import { CallNotListenable, SubscriberRejection, type CallListening } from '../providers/phone-system.js';
import { providerCall as call } from '../test-support/provider-call.js';
import { buildTestApp, T0, tokens, type TestApp } from '../test-support/test-app.js';

const pbx = { accountID: 'acme', applicationID: 'support', providerID: 'pbx' };
const S = 1000;
const json = { 'content-type': 'application/json' };
const ANSWER = 'v=0\r\no=- 1 1 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\n';

let t: TestApp;
afterEach(async () => {
  await t.app.close();
});

const expectProblem = (res: { statusCode: number; body: string; json: () => unknown }, status: number, code: ProblemCode) => {
  expect(res.statusCode, res.body).toBe(status);
  const problem = problemSchema.parse(res.json());
  expect(problem.code).toBe(code);
  return problem;
};

/** An app whose pbx has browser phones and listening (unless told otherwise), one answered call and one ringing. */
const withBrowserPhones = async ({ phones = true, listens = true } = {}) => {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  t = await buildTestApp({}, { logger: { level: 'info', stream } });
  const phone = t.phone('acme/support/pbx');
  const asked: string[] = [];
  if (phones)
    Object.assign(phone, {
      softphone: {
        credentials: (subscriberID: string, now: number) => {
          if (subscriberID === 'agt-gone') throw new SubscriberRejection('subscriber_not_found', 'No subscriber "agt-gone".');
          return {
            websocketURL: 'wss://sip.example.com/',
            sipURI: `sip:${subscriberID}@sip.example.com`,
            authorizationUser: `${now / 1000 + 3600}:${subscriberID}`,
            password: 'hmac-of-it',
            displayName: 'Maya Chen',
            expiresAt: new Date(now + 3600 * S).toISOString(),
            iceServers: [],
          };
        },
      },
    });
  if (listens) {
    const listening: CallListening = {
      start: async (live) => {
        asked.push(`start ${live.callID}`);
        if (live.answeredAt === undefined) throw new CallNotListenable('not_answered', `Call "${live.callID}" is not answered yet.`);
        return { listenID: 'a1b2c3d4e5f60718', sdp: 'v=0\r\noffer', iceServers: [] };
      },
      answer: async (live, listenID, sdp) => void asked.push(`answer ${live.callID} ${listenID} ${sdp.slice(0, 3)}`),
      stop: async (live, listenID) => void asked.push(`stop ${live.callID} ${listenID}`),
    };
    Object.assign(phone, { listening });
  }
  phone.calls = [call('talking', T0 - 90 * S, { answeredAt: T0 - 80 * S, subscriberID: 'agt-1' }), call('ringing', T0 - 5 * S, { subscriberID: 'agt-2' })];
  await t.app.providers.syncAll();
  return { asked, lines };
};

const credentials = (body: unknown, token: string = tokens.acmeAll) =>
  t.as(token, { method: 'POST', url: paths.softphoneCredentials(pbx), headers: json, payload: JSON.stringify(body) });
const listen = (callID: string, token: string = tokens.acmeSupervisor) => t.as(token, { method: 'POST', url: paths.listen(pbx, callID) });
const answer = (callID: string, listenID: string, sdp: string, token: string = tokens.acmeSupervisor) =>
  t.as(token, { method: 'PUT', url: paths.listener(pbx, callID, listenID), headers: json, payload: JSON.stringify({ sdp }) });
const stop = (callID: string, listenID: string, token: string = tokens.acmeSupervisor) => t.as(token, { method: 'DELETE', url: paths.listener(pbx, callID, listenID) });

describe('browser phone credentials', () => {
  it("issues a subscriber's credentials, never cached, and logs who asked without the password", async () => {
    const { lines } = await withBrowserPhones();
    const res = await credentials({ providerSubscriberID: 'agt-1' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(softphoneCredentialsSchema.parse(res.json())).toMatchObject({ sipURI: 'sip:agt-1@sip.example.com', password: 'hmac-of-it' });
    const logged = lines.filter((line) => line.includes('browser phone credentials issued'));
    expect(logged).toHaveLength(1);
    expect(logged[0]).not.toContain('hmac-of-it');
  });

  it("gives an agent's token its own subscriber's only", async () => {
    await withBrowserPhones();
    expect((await credentials({ providerSubscriberID: 'agt-1' }, tokens.acmeAgent)).statusCode).toBe(200);
    expectProblem(await credentials({ providerSubscriberID: 'agt-2' }, tokens.acmeAgent), 403, 'subscriber_not_allowed');
  });

  it('refuses a token without calls:write, a body that is not valid, and an unknown subscriber, each saying so', async () => {
    await withBrowserPhones();
    expectProblem(await credentials({ providerSubscriberID: 'agt-1' }, tokens.acmeSupportRead), 403, 'forbidden');
    const invalid = expectProblem(await credentials({ subscriber: 'agt-1' }), 400, 'validation_failed');
    expect(invalid.errors?.map((error) => error.field)).toContain('providerSubscriberID');
    expectProblem(await credentials({ providerSubscriberID: 'agt-gone' }), 409, 'subscriber_not_found');
  });

  it('answers 501 for a provider without browser phones, and /v1/me says which have them', async () => {
    await withBrowserPhones({ phones: false, listens: false });
    const problem = expectProblem(await credentials({ providerSubscriberID: 'agt-1' }), 501, 'not_supported');
    expect(problem.detail).toContain('has no browser phones');
    const me = meResponseSchema.parse((await t.as(tokens.acmeAll, { method: 'GET', url: paths.me() })).json());
    expect(me.applications.flatMap((application) => application.providers).find((provider) => provider.id === 'pbx')).toMatchObject({ softphone: false, canListen: false });
  });
});

describe('listening to a call', () => {
  it('offers, takes the answer and stops, each audited like ending a call', async () => {
    const { asked, lines } = await withBrowserPhones();
    const me = meResponseSchema.parse((await t.as(tokens.acmeSupervisor, { method: 'GET', url: paths.me() })).json());
    expect(me.applications[0]?.providers.find((provider) => provider.id === 'pbx')).toMatchObject({ canListen: true, softphone: true });

    const started = await listen('talking');
    expect(started.statusCode, started.body).toBe(200);
    expect(listenOfferSchema.parse(started.json())).toEqual({ callID: 'talking', listenID: 'a1b2c3d4e5f60718', sdp: 'v=0\r\noffer', iceServers: [] });
    expect((await answer('talking', 'a1b2c3d4e5f60718', ANSWER)).statusCode).toBe(204);
    expect((await stop('talking', 'a1b2c3d4e5f60718')).statusCode).toBe(204);
    expect(asked).toEqual(['start talking', 'answer talking a1b2c3d4e5f60718 v=0', 'stop talking a1b2c3d4e5f60718']);
    expect((await t.store.callActions(pbx, 'talking')).map(({ action, actor, outcome }) => ({ action, actor, outcome }))).toEqual([
      { action: 'listen', actor: 'floor-supervisor', outcome: 'done' },
      { action: 'unlisten', actor: 'floor-supervisor', outcome: 'done' },
    ]);
    expect(lines.filter((line) => line.includes('"audit"')).map((line) => JSON.parse(line).msg)).toEqual([
      'a supervisor listens to a call',
      'a supervisor stopped listening to a call',
    ]);
  });

  it('needs calls:control, refuses a ringing call and an unknown one, and audits the refusal', async () => {
    await withBrowserPhones();
    expectProblem(await listen('talking', tokens.acmeAll), 403, 'forbidden');
    expectProblem(await listen('ringing'), 409, 'call_not_answered');
    expectProblem(await listen('nowhere'), 404, 'call_not_found');
    expect(await t.store.callActions(pbx, 'ringing')).toMatchObject([{ action: 'listen', outcome: 'call_not_answered' }]);
  });

  it('refuses an answer that is not SDP, naming the field', async () => {
    await withBrowserPhones();
    const problem = expectProblem(await answer('talking', 'a1b2c3d4e5f60718', 'hello'), 400, 'validation_failed');
    expect(problem.errors).toEqual([{ field: 'sdp', message: 'must be an SDP answer (starting "v=0")' }]);
  });

  it('stops a listener of a call that has ended with a 204: its media went with the call', async () => {
    const { asked } = await withBrowserPhones();
    t.phone('acme/support/pbx').calls = [];
    t.clock.advance(S);
    await t.app.providers.syncAll();
    t.clock.advance(10 * 60 * S);
    await t.app.providers.syncAll();
    expect((await stop('talking', 'a1b2c3d4e5f60718')).statusCode).toBe(204);
    expect(asked).toEqual([]);
  });

  it('answers 501 naming what is missing for a provider that cannot listen', async () => {
    await withBrowserPhones({ listens: false });
    const problem = expectProblem(await listen('talking'), 501, 'not_supported');
    expect(problem.detail).toMatch(/^Provider ".+" \(simulator\) cannot listen to calls: Callboard does not yet listen to calls of simulator providers/);
  });
});
