/**
 * The Twilio provider against a double of Twilio's Calls resource, over real HTTP both ways: the
 * service's requests to Twilio and the double's signed status callbacks to the service's webhook.
 * Every request and answer is checked against Twilio's OpenAPI description (no violation allowed).
 */
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import type { CallRecord } from '../../../contract/call-record.js';
import { paths } from '../../../contract/paths.js';
import { buildApp } from '../../app.js';
import { serviceConfigSchema } from '../../config/config-schema.js';
import { createTestHistory } from '../../test-support/test-history.js';
import { signCallback, TwilioDouble } from '../../../testbed/twilio/twilio-double.js';
import { freePort } from '../../../testbed/free-ports.js';
import { TEST_ACCOUNT_SID, TEST_AUTH_TOKEN, TEST_NUMBER, twilioProviderConfig } from '../../../testbed/twilio/twilio-testbed.js';

const TOKEN = 'twilio-provider-test-token-0001';
const SUPERVISOR_TOKEN = 'twilio-provider-supervisor-token-01';
const scope = { accountID: 'acme', applicationID: 'support', providerID: 'twilio' };
const direct = { ...scope, providerID: 'twilio-direct' };
const CUSTOMER = '+15550100001';
const REMOTE = '442079460958';
/** Support takes the account's number; Sales the callers Twilio's queue "sales-q" holds. */
const QUEUES = [
  { id: 'support', name: 'Support', numbers: [`+${TEST_NUMBER}`], providerQueues: ['support'] },
  { id: 'sales', name: 'Sales', numbers: ['+15005550007'], providerQueues: ['sales-q'] },
];

interface Bed {
  double: TwilioDouble;
  app: FastifyInstance;
  base: string;
  webhookURL: string;
  api: (method: 'GET' | 'POST', url: string, body?: object) => Promise<Response>;
  calls: (providerID?: string) => Promise<CallRecord[]>;
  /** Waits until the listed call matches. */
  until: (test: (calls: CallRecord[]) => boolean, providerID?: string) => Promise<CallRecord[]>;
  /** Ends a call with the supervisor's token. */
  end: (callID: string, providerID?: string) => Promise<Response>;
  fetches: () => number;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const METRICS_TOKEN = 'twilio-provider-metrics-token-01';

interface StartOptions {
  syncIntervalMs?: number;
  withoutWebhook?: boolean;
  /** The token the service is configured with, when not the double's. */
  authToken?: string;
  /** Where the service logs, at debug level. */
  log?: (line: string) => void;
  /** The queues of the two-step provider. */
  queues?: typeof QUEUES;
}

const start = async (options: StartOptions = {}): Promise<Bed> => {
  const double = await TwilioDouble.start({ accountSid: TEST_ACCOUNT_SID, authToken: TEST_AUTH_TOKEN });
  cleanups.push(() => double.close());
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const webhookBaseURL = options.withoutWebhook ? undefined : base;
  const history = await createTestHistory();
  cleanups.push(() => history.dispose());
  const syncIntervalMs = options.syncIntervalMs ?? 60_000;
  const withToken = <T extends { settings: object }>(provider: T): T =>
    options.authToken ? { ...provider, settings: { ...provider.settings, authToken: options.authToken } } : provider;
  const app = await buildApp({
    history: await history.open(),
    ...(options.log ? { logger: { level: 'debug', stream: { write: options.log } } } : {}),
    config: serviceConfigSchema.parse({
      metrics: { token: METRICS_TOKEN },
      accounts: [
        {
          id: 'acme',
          name: 'Acme',
          applications: [
            {
              id: 'support',
              name: 'Support',
              providers: [
                withToken(twilioProviderConfig({ apiBaseURL: double.url, webhookBaseURL, syncIntervalMs, ...(options.queues ? { queues: options.queues } : {}) })),
                withToken(twilioProviderConfig({ id: 'twilio-direct', apiBaseURL: double.url, webhookBaseURL, syncIntervalMs, dialMode: 'direct' })),
              ],
            },
          ],
          tokens: [
            { name: 't', token: TOKEN, applications: '*', permissions: ['calls:read', 'calls:write'] },
            { name: 'floor-supervisor', token: SUPERVISOR_TOKEN, applications: '*', permissions: ['calls:read', 'calls:control'] },
          ],
        },
      ],
    }),
  });
  await app.listen({ port, host: '127.0.0.1' });
  cleanups.push(() => app.close());
  await app.providers.get(scope)?.sync.ready();
  await app.providers.get(direct)?.sync.ready();
  const api = (method: 'GET' | 'POST', url: string, body?: object) =>
    fetch(`${base}${url}`, {
      method,
      headers: { authorization: `Bearer ${TOKEN}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
  const calls = async (providerID = 'twilio') => ((await (await api('GET', paths.listCalls({ ...scope, providerID }))).json()) as { calls: CallRecord[] }).calls;
  const until = async (test: (listed: CallRecord[]) => boolean, providerID = 'twilio') => {
    const deadline = Date.now() + 5000;
    for (;;) {
      const listed = await calls(providerID);
      if (test(listed)) return listed;
      if (Date.now() > deadline) throw new Error(`not within 5 s; listed: ${JSON.stringify(listed)}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  const end = (callID: string, providerID = 'twilio') =>
    fetch(`${base}${paths.call({ ...scope, providerID }, callID)}`, { method: 'DELETE', headers: { authorization: `Bearer ${SUPERVISOR_TOKEN}` } });
  const fetches = () => (app.providers.get(scope)?.sync.counts.fetches ?? 0) + (app.providers.get(direct)?.sync.counts.fetches ?? 0);
  return { double, app, base, webhookURL: `${base}${paths.webhook('twilio', scope)}`, api, calls, until, end, fetches };
};

/**
 * A list is asked for soon after a call is placed (the next is a minute away): this waits until it
 * has started and had time to end, so what shows next came pushed. Waiting for the list itself, not
 * for a set time, holds on a busy machine, where a timer can fire late.
 */
const quiet = async (bed: Bed, listsBefore: number) => {
  const deadline = Date.now() + 5000;
  while (bed.fetches() <= listsBefore) {
    if (Date.now() > deadline) throw new Error('no list was asked for within 5 s of placing the call');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await new Promise((resolve) => setTimeout(resolve, 200));
  return bed.fetches();
};

const noViolations = (bed: Bed) => expect(bed.double.violations).toEqual([]);

describe('the Twilio provider, against a double of Twilio’s API', () => {
  it('places a two-step call: the agent’s device first, with callbacks on both legs; listed at once, connected and ended as Twilio tells', async () => {
    const bed = await start();
    const listsBefore = bed.fetches();
    const placed = await bed.api('POST', paths.makeCall(scope), { providerSubscriberID: 'agt-ada', remoteNumber: REMOTE });
    expect(placed.status).toBe(204);
    const create = bed.double.requests.find((request) => request.method === 'POST');
    expect(create?.form?.get('To')).toBe('client:ada');
    expect(create?.form?.get('From')).toBe(`+${TEST_NUMBER}`);
    expect(create?.form?.getAll('StatusCallbackEvent')).toEqual(['initiated', 'ringing', 'answered', 'completed']);
    expect(create?.form?.get('StatusCallback')).toBe(bed.webhookURL);
    expect(create?.form?.get('Twiml')).toContain(`<Number statusCallbackEvent="initiated ringing answered completed" statusCallback="${bed.webhookURL}?leg=remote" statusCallbackMethod="POST">+${REMOTE}</Number>`);

    // Listed at once, with the number dialed: Twilio's first leg is the agent's and names no remote party yet.
    const [listed] = await bed.calls();
    expect(listed).toMatchObject({ isOutbound: true, isMissedCall: false, remoteNumber: REMOTE, subscriberID: 'agt-ada', subscriberFirstName: 'Ada' });
    expect(listed?.answeredAt).toBeUndefined();
    const root = bed.double.calls()[0]?.sid as string;
    expect(listed?.callID).toBe(root);

    const lists = await quiet(bed, listsBefore);
    bed.double.answer(root);
    await bed.double.settled();
    const remoteLeg = bed.double.children(root)[0]?.sid as string;
    bed.double.answer(remoteLeg);
    const connected = await bed.until((calls) => calls[0]?.answeredAt !== undefined);
    expect(Date.parse(connected[0]?.answeredAt as string)).toBeGreaterThan(Date.parse(connected[0]?.startedAt as string) - 1000);
    bed.double.hangUp(remoteLeg);
    const over = await bed.until((calls) => calls[0]?.endedAt !== undefined);
    expect(over[0]).toMatchObject({ isMissedCall: false, remoteNumber: REMOTE, subscriberID: 'agt-ada' });
    // Each step came by callback: no list was asked for meanwhile.
    expect(bed.fetches()).toBe(lists);
    expect(bed.double.sentCallbacks.every((sent) => sent.status === 204)).toBe(true);
    noViolations(bed);
  });

  it('places a direct call: the remote number from the agent’s own number, then the agent’s device bridged', async () => {
    const bed = await start();
    const listsBefore = bed.fetches();
    expect((await bed.api('POST', paths.makeCall(direct), { providerSubscriberID: 'agt-lin', remoteNumber: REMOTE })).status).toBe(204);
    const create = bed.double.requests.find((request) => request.method === 'POST');
    expect(create?.form?.get('To')).toBe(`+${REMOTE}`);
    expect(create?.form?.get('From')).toBe('+15551230103');
    expect(create?.form?.get('Twiml')).toContain('<Number>+15550100103</Number>');
    await quiet(bed, listsBefore);
    const root = bed.double.calls()[0]?.sid as string;
    bed.double.answer(root);
    const connected = await bed.until((calls) => calls[0]?.answeredAt !== undefined, 'twilio-direct');
    expect(connected[0]).toMatchObject({ isOutbound: true, remoteNumber: REMOTE, subscriberID: 'agt-lin' });
    bed.double.hangUp(root);
    await bed.until((calls) => calls[0]?.endedAt !== undefined, 'twilio-direct');
    noViolations(bed);
  });

  it('follows an inbound call dialed to an agent: ringing (though Twilio answered it), answered by the agent, ended, not missed', async () => {
    const bed = await start();
    const root = bed.double.inbound({ from: CUSTOMER, to: `+${TEST_NUMBER}`, statusCallback: bed.webhookURL, callerName: 'ACME CORP' });
    const [agentLeg] = bed.double.dialAgents(root, ['client:ada'], { statusCallback: bed.webhookURL });
    const ringing = await bed.until((calls) => calls[0]?.subscriberID === 'agt-ada');
    expect(ringing[0]).toMatchObject({ callID: root, isOutbound: false, remoteNumber: '15550100001', isMissedCall: false });
    expect(ringing[0]?.answeredAt).toBeUndefined();
    bed.double.answer(agentLeg as string);
    await bed.until((calls) => calls[0]?.answeredAt !== undefined);
    bed.double.hangUp(root);
    const over = await bed.until((calls) => calls[0]?.endedAt !== undefined);
    expect(over[0]).toMatchObject({ isMissedCall: false, subscriberID: 'agt-ada' });
    noViolations(bed);
  });

  it('gives an inbound call the number dialed and the queue of the Twilio queue it waits in, else of that number; an outbound call neither', async () => {
    const bed = await start({ queues: QUEUES });
    const waiting = bed.double.inbound({ from: CUSTOMER, to: `+${TEST_NUMBER}`, statusCallback: bed.webhookURL });
    const salesQueue = bed.double.enqueue(waiting, 'sales-q');
    // A Twilio queue no configured queue names: the number dialed decides.
    const overflow = bed.double.inbound({ from: '+15550100002', to: `+${TEST_NUMBER}` });
    bed.double.enqueue(overflow, 'overflow');
    expect((await bed.api('POST', paths.makeCall(scope), { providerSubscriberID: 'agt-ada', remoteNumber: REMOTE })).status).toBe(204);
    await bed.app.providers.get(scope)?.sync.syncOnce();
    const listed = await bed.calls();
    // The number dialed is Support's, but Twilio's queue says Sales: the phone system's own queue comes first.
    expect(listed.find((call) => call.callID === waiting)).toMatchObject({ isOutbound: false, calledNumber: TEST_NUMBER, queueID: 'sales', queueName: 'Sales' });
    expect(listed.find((call) => call.callID === overflow)).toMatchObject({ isOutbound: false, calledNumber: TEST_NUMBER, queueID: 'support', queueName: 'Support' });
    const outbound = listed.find((call) => call.isOutbound);
    expect(outbound).toBeDefined();
    expect(outbound).not.toHaveProperty('calledNumber');
    expect(outbound).not.toHaveProperty('queueID');
    // Only the members of the queue a configured queue names were read.
    const memberReads = bed.double.requests.filter((request) => request.path.endsWith('/Members.json')).map((request) => request.path);
    expect(new Set(memberReads)).toEqual(new Set([`/2010-04-01/Accounts/${TEST_ACCOUNT_SID}/Queues/${salesQueue}/Members.json`]));

    // Dequeued to an agent, answered and ended (its end callback names the number, not the queue): still Sales's call.
    bed.double.dequeue(waiting);
    const [agentLeg] = bed.double.dialAgents(waiting, ['client:ada'], { statusCallback: bed.webhookURL });
    bed.double.answer(agentLeg as string);
    bed.double.hangUp(waiting);
    await bed.app.providers.get(scope)?.sync.syncOnce();
    const over = await bed.until((calls) => calls.find((call) => call.callID === waiting)?.endedAt !== undefined);
    expect(over.find((call) => call.callID === waiting)).toMatchObject({ isMissedCall: false, subscriberID: 'agt-ada', calledNumber: TEST_NUMBER, queueID: 'sales', queueName: 'Sales' });
    noViolations(bed);
  });

  it('ends a call for a supervisor: an answered inbound call is completed with the agent’s leg, listed ended by them', async () => {
    const bed = await start();
    const root = bed.double.inbound({ from: CUSTOMER, to: `+${TEST_NUMBER}`, statusCallback: bed.webhookURL });
    const [agentLeg] = bed.double.dialAgents(root, ['client:ada'], { statusCallback: bed.webhookURL });
    bed.double.answer(agentLeg as string);
    await bed.until((calls) => calls[0]?.answeredAt !== undefined);

    const before = bed.double.requests.length;
    expect((await bed.end(root)).status).toBe(204);
    const asked = bed.double.requests.slice(before).filter((request) => request.path.includes(root));
    expect(asked.map((request) => [request.method, request.form?.get('Status') ?? null])).toEqual([
      ['GET', null],
      ['POST', 'completed'],
    ]);
    expect(bed.double.call(root).status).toBe('completed');
    expect(bed.double.call(agentLeg as string).status).toBe('completed');
    const over = await bed.until((calls) => calls[0]?.endedAt !== undefined);
    expect(over[0]).toMatchObject({ endedBy: 'floor-supervisor', isMissedCall: false, subscriberID: 'agt-ada' });
    // Once ended, it is ended: the service says so without asking Twilio again.
    expect((await (await bed.end(root)).json()) as object).toMatchObject({ code: 'call_ended' });
    noViolations(bed);
  });

  it('cancels a click-to-call still ringing the agent’s device', async () => {
    const bed = await start();
    const listsBefore = bed.fetches();
    expect((await bed.api('POST', paths.makeCall(scope), { providerSubscriberID: 'agt-ada', remoteNumber: REMOTE })).status).toBe(204);
    await quiet(bed, listsBefore);
    const root = bed.double.calls()[0]?.sid as string;
    await bed.until((calls) => calls[0]?.callID === root);
    expect((await bed.end(root)).status).toBe(204);
    expect(bed.double.call(root).status).toBe('canceled');
    expect((await bed.until((calls) => calls[0]?.endedAt !== undefined))[0]).toMatchObject({ endedBy: 'floor-supervisor', isOutbound: true });
    noViolations(bed);
  });

  it('ends an inbound call no agent answered as missed, and one the caller gave up on while it rang', async () => {
    const bed = await start();
    const unanswered = bed.double.inbound({ from: CUSTOMER, to: `+${TEST_NUMBER}`, statusCallback: bed.webhookURL });
    bed.double.dialAgents(unanswered, ['client:ada', 'sip:max@callboard-test.sip.twilio.com'], { statusCallback: bed.webhookURL, timeoutSeconds: 1 });
    const abandoned = bed.double.inbound({ from: '+15550100002', to: `+${TEST_NUMBER}`, statusCallback: bed.webhookURL });
    bed.double.dialAgents(abandoned, ['15550100103'], { statusCallback: bed.webhookURL });
    await bed.until((calls) => calls.length === 2);
    bed.double.hangUp(abandoned);
    const listed = await bed.until((calls) => calls.every((call) => call.endedAt !== undefined));
    for (const sid of [unanswered, abandoned]) {
      const call = listed.find((c) => c.callID === sid);
      expect(call, sid).toMatchObject({ isOutbound: false, isMissedCall: true });
      expect(call?.answeredAt, sid).toBeUndefined();
    }
    expect(bed.double.call(unanswered).status).toBe('completed');
    expect(bed.double.children(unanswered).map((leg) => leg.status)).toEqual(['no-answer', 'no-answer']);
    noViolations(bed);
  });

  it('refuses an unsigned, a wrongly signed and a forged callback with 403, and takes a replayed one with nothing changed', async () => {
    const bed = await start();
    const root = bed.double.inbound({ from: CUSTOMER, to: `+${TEST_NUMBER}`, statusCallback: bed.webhookURL });
    const [agentLeg] = bed.double.dialAgents(root, ['client:ada'], { statusCallback: bed.webhookURL });
    bed.double.answer(agentLeg as string);
    await bed.until((calls) => calls[0]?.answeredAt !== undefined);
    await bed.double.settled();
    const etag = (await bed.api('GET', paths.listCalls(scope))).headers.get('etag');
    const answered = bed.double.sentCallbacks.find((sent) => sent.params.CallStatus === 'in-progress' && sent.params.ParentCallSid === root);
    expect(answered).toBeDefined();
    const { url, params } = answered as { url: string; params: Record<string, string> };
    const { ParentCallSid: _child, ...rootParams } = params;
    const ended = { ...rootParams, CallSid: root, CallStatus: 'completed', Timestamp: new Date().toUTCString().replace('GMT', '+0000'), SequenceNumber: '9' };
    const post = (body: Record<string, string>, signature?: string) =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...(signature ? { 'x-twilio-signature': signature } : {}) },
        body: new URLSearchParams(body),
      });
    expect((await post(ended)).status).toBe(403);
    expect((await post(ended, signCallback('not-the-auth-token-0000000000000', url, ended))).status).toBe(403);
    expect((await post(ended, signCallback(TEST_AUTH_TOKEN, `${url}?leg=remote`, ended))).status).toBe(403);
    const refused = await post(ended, signCallback(TEST_AUTH_TOKEN, url, params));
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: 'forbidden' });
    // The answer, delivered again exactly as Twilio signed it: taken, and nothing changes.
    expect((await post(params, signCallback(TEST_AUTH_TOKEN, url, params))).status).toBe(204);
    expect((await bed.api('GET', paths.listCalls(scope))).headers.get('etag')).toBe(etag);
    expect((await bed.calls())[0]?.endedAt).toBeUndefined();
    noViolations(bed);
  });

  it('backs off when Twilio limits the account (error 20429), longer at each one in a row, never in a tight loop, and recovers', async () => {
    const bed = await start({ syncIntervalMs: 100 });
    const before = bed.double.requests.length;
    bed.double.rateLimit(Number.POSITIVE_INFINITY);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    // Listing every 100 ms, two providers would ask about 60 times in 3 s; held off 1 s, then 2 s, then 4 s, each asks twice or three times.
    expect(bed.double.requests.length - before).toBeLessThanOrEqual(6);
    const refused = await bed.api('POST', paths.makeCall(scope), { providerSubscriberID: 'agt-ada', remoteNumber: REMOTE });
    expect(refused.status).toBe(503);
    expect(await refused.json()).toMatchObject({ code: 'provider_unavailable', detail: expect.stringContaining('error 20429') });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    bed.double.rateLimit(0);
    const deadline = Date.now() + 9000;
    while (bed.app.providers.get(scope)?.sync.live.status().failure && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(bed.app.providers.get(scope)?.sync.live.status()).toEqual({ available: true, snapshotAgeMs: expect.any(Number) });
    noViolations(bed);
  }, 20_000);

  it('reads every page of a large center’s live legs within its budget of requests per list', async () => {
    const bed = await start();
    for (let i = 0; i < 1500; i += 1) bed.double.inbound({ from: `+1555020${String(i).padStart(4, '0')}`, to: `+${TEST_NUMBER}` });
    const runtime = bed.app.providers.get(scope);
    const client = (runtime?.phoneSystem as unknown as { client: { requests: number } }).client;
    const sent = client.requests;
    await runtime?.sync.syncOnce();
    // Queued, ringing, in progress (two pages of 1,000), and the recently ended.
    expect(client.requests - sent).toBe(5);
    expect(await bed.calls()).toHaveLength(1500);
    noViolations(bed);
  });

  it('lists only, with no callbacks asked for, when the config gives no webhookBaseURL', async () => {
    const bed = await start({ withoutWebhook: true });
    expect((await bed.api('POST', paths.makeCall(scope), { providerSubscriberID: 'agt-max', remoteNumber: REMOTE })).status).toBe(204);
    const create = bed.double.requests.find((request) => request.method === 'POST');
    expect(create?.form?.get('StatusCallback')).toBeNull();
    expect(create?.form?.get('Twiml')).not.toContain('statusCallback');
    const root = bed.double.calls()[0]?.sid as string;
    bed.double.answer(root);
    bed.double.answer(bed.double.children(root)[0]?.sid as string);
    await bed.app.providers.get(scope)?.sync.syncOnce();
    expect((await bed.calls())[0]).toMatchObject({ remoteNumber: REMOTE, subscriberID: 'agt-max', answeredAt: expect.any(String) });
    const webhook = await fetch(`${bed.base}${paths.webhook('twilio', scope)}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'CallSid=x' });
    expect(webhook.status).toBe(404);
    noViolations(bed);
  });

  it('keeps the auth token out of the logs, the problems, /v1/me, /metrics and the API description', async () => {
    const secret = 'a-wrong-auth-token-never-shown-00';
    const lines: string[] = [];
    const bed = await start({ authToken: secret, log: (line) => lines.push(line) });
    const placed = await bed.api('POST', paths.makeCall(scope), { providerSubscriberID: 'agt-ada', remoteNumber: REMOTE });
    expect(placed.status).toBe(502);
    const problem = await placed.text();
    expect(problem).toContain('Twilio refused the account');
    await bed.app.providers.get(scope)?.sync.syncOnce();
    const list = await bed.api('GET', paths.listCalls(scope));
    const seen = [
      problem,
      await list.text(),
      await (await bed.api('GET', paths.me())).text(),
      await (await fetch(`${bed.base}${paths.metrics()}`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text(),
      await (await fetch(`${bed.base}${paths.openapi()}`)).text(),
      lines.join('\n'),
    ];
    expect(lines.some((line) => line.includes('provider sync failing'))).toBe(true);
    for (const text of seen) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain(Buffer.from(`${TEST_ACCOUNT_SID}:${secret}`).toString('base64'));
    }
  });

  it('answers requests to the webhook that are not a provider’s callback plainly, before reading anything', async () => {
    const bed = await start();
    const url = (type: string, providerID = 'twilio') => `${bed.base}${paths.webhook(type, { ...scope, providerID })}`;
    const post = (to: string, body: string, type = 'application/x-www-form-urlencoded') => fetch(to, { method: 'POST', headers: { 'content-type': type }, body });
    expect((await post(url('asterisk'), 'CallSid=x')).status).toBe(404);
    expect((await post(url('twilio', 'nope'), 'CallSid=x')).status).toBe(404);
    const json = await post(url('twilio'), '{"CallSid":"x"}', 'application/json');
    expect(json.status).toBe(415);
    expect(await json.json()).toMatchObject({ code: 'unsupported_media_type', detail: expect.stringContaining('application/x-www-form-urlencoded') });
    const large = await post(url('twilio'), `Padding=${'x'.repeat(9000)}`);
    expect(large.status).toBe(413);
    expect(await large.json()).toMatchObject({ detail: 'The request body is larger than the 8 KiB limit.' });
    expect((await fetch(url('twilio'))).status).toBe(405);
    const described = (await (await fetch(`${bed.base}${paths.openapi()}`)).json()) as { paths: Record<string, { post?: { security?: unknown[] } }> };
    expect(described.paths['/v1/webhooks/{providerType}/{accountID}/{applicationID}/{providerID}']?.post?.security).toEqual([]);
  });
});
