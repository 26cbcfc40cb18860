import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { listCallsResponseSchema } from '../../contract/call-record.js';
import { meResponseSchema } from '../../contract/me.js';
import { paths } from '../../contract/paths.js';
import { problemSchema, type ProblemCode } from '../../contract/problem.js';
import { CallNotEndable } from '../providers/phone-system.js';
import { providerCall as call } from '../test-support/provider-call.js';
import type { ScriptedPhoneSystem } from '../test-support/scripted-phone-system.js';
import { buildTestApp, T0, tokens, type TestApp } from '../test-support/test-app.js';

const pbx = { accountID: 'acme', applicationID: 'support', providerID: 'pbx' };
const S = 1000;

let t: TestApp;
afterEach(async () => {
  await t.app.close();
});

const end = (callID: string, token: string = tokens.acmeSupervisor, scope = pbx) => t.as(token, { method: 'DELETE', url: paths.call(scope, callID) });

const expectProblem = (res: Awaited<ReturnType<typeof end>>, status: number, code: ProblemCode) => {
  expect(res.statusCode, res.body).toBe(status);
  const problem = problemSchema.parse(res.json());
  expect(problem.code).toBe(code);
  return problem;
};

const listed = async (callID: string) => {
  const res = await t.as(tokens.acmeSupervisor, { method: 'GET', url: paths.listCalls(pbx) });
  return listCallsResponseSchema.parse(res.json()).calls.find((record) => record.callID === callID);
};

/** An app whose pbx has one answered call and one ringing, synced once; `lines` collects the service log. */
const withCalls = async ({ endsCalls = true, refuse }: { endsCalls?: boolean; refuse?: Parameters<ScriptedPhoneSystem['endsCalls']>[0] } = {}) => {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  t = await buildTestApp({}, { logger: { level: 'info', stream } });
  const phone = t.phone('acme/support/pbx');
  if (endsCalls) phone.endsCalls(refuse);
  phone.calls = [
    call('talking', T0 - 90 * S, { answeredAt: T0 - 80 * S, subscriberID: 'agt-1', subscriberFirstName: 'Maya' }),
    call('ringing', T0 - 5 * S, { subscriberID: 'agt-2' }),
  ];
  await t.app.providers.syncAll();
  return { phone, lines };
};

describe('DELETE a call (a supervisor ends it)', () => {
  it('asks the provider to end the call, answers 204, and the call then shows ended by the token that did it', async () => {
    const { phone } = await withCalls();
    const res = await end('talking');
    expect(res.statusCode, res.body).toBe(204);
    expect(res.body).toBe('');
    expect(phone.ended).toEqual(['talking']);

    // Who ended it shows at once; the end itself once the provider's list no longer has the call.
    expect(await listed('talking')).toMatchObject({ endedBy: 'floor-supervisor' });
    t.clock.advance(S);
    await t.app.providers.syncAll();
    const ended = await listed('talking');
    expect(ended).toMatchObject({ endedBy: 'floor-supervisor', endedAt: expect.any(String) });
    expect((await listed('ringing'))?.endedAt).toBeUndefined();
  });

  it('writes who ended which call, and when, to the audit trail and the service log, never the token itself', async () => {
    const { lines } = await withCalls();
    expect((await end('talking')).statusCode).toBe(204);
    expect(await t.store.callActions(pbx, 'talking')).toEqual([{ callID: 'talking', action: 'end', actor: 'floor-supervisor', at: T0, outcome: 'done' }]);
    const audit = lines.filter((line) => line.includes('"audit"'));
    expect(audit).toHaveLength(1);
    expect(JSON.parse(audit[0] as string)).toMatchObject({
      msg: 'a call was ended through the service',
      audit: { provider: 'pbx', callID: 'talking', actor: 'floor-supervisor', action: 'end', outcome: 'done' },
    });
    expect(lines.join('')).not.toContain(tokens.acmeSupervisor);
  });

  it('needs calls:control, which the other tokens lack, and asks the provider nothing without it', async () => {
    const { phone } = await withCalls();
    for (const token of [tokens.acmeAll, tokens.acmeSupportRead, tokens.acmeAgent]) {
      const problem = expectProblem(await end('talking', token), 403, 'forbidden');
      expect(problem.detail).toContain('calls:control');
    }
    expect(phone.ended).toEqual([]);
    expect(await t.store.callActions(pbx, 'talking')).toEqual([]);
  });

  it('is scoped like every request: a provider of an application the token cannot see does not exist', async () => {
    await withCalls();
    expectProblem(await end('talking', tokens.acmeSupervisor, { ...pbx, applicationID: 'sales' }), 404, 'not_found');
  });

  it('says which call it does not know, and which one already ended', async () => {
    const { phone } = await withCalls();
    expect(expectProblem(await end('nope'), 404, 'call_not_found').detail).toContain('"nope"');
    phone.calls = [{ ...(phone.calls[0] as (typeof phone.calls)[number]), endedAt: T0 }];
    await t.app.providers.syncAll();
    expect(expectProblem(await end('talking'), 409, 'call_ended').detail).toMatch(/already ended at/);
    expect(phone.ended).toEqual([]);
  });

  it('answers 501 not_supported for a provider that cannot end calls, and /v1/me says which can', async () => {
    await withCalls({ endsCalls: false });
    expectProblem(await end('talking'), 501, 'not_supported');
    const me = meResponseSchema.parse((await t.as(tokens.acmeSupervisor, { method: 'GET', url: paths.me() })).json());
    expect(me.permissions).toEqual(['calls:control', 'calls:export', 'calls:read']);
    expect(me.applications[0]?.providers.map((p) => [p.id, p.canEndCalls])).toEqual([
      ['pbx', false],
      ['trunk', false],
    ]);
  });

  it("passes on the provider's refusal and failure, and audits them with their outcome", async () => {
    await withCalls({ refuse: (refused) => (refused.answeredAt === undefined ? new CallNotEndable('refused', 'A ringing call cannot be cancelled here.') : undefined) });
    expect(expectProblem(await end('ringing'), 409, 'call_not_endable').detail).toBe('A ringing call cannot be cancelled here.');
    t.phone('acme/support/pbx').failure = 'unavailable';
    expectProblem(await end('talking'), 503, 'provider_unavailable');
    expect((await t.store.callActions(pbx, 'ringing')).map((a) => [a.outcome, a.detail])).toEqual([['call_not_endable', 'A ringing call cannot be cancelled here.']]);
    expect((await t.store.callActions(pbx, 'talking')).map((a) => a.outcome)).toEqual(['provider_unavailable']);
    // Neither shows as ended by anyone.
    t.phone('acme/support/pbx').failure = null;
    expect((await listed('ringing'))?.endedBy).toBeUndefined();
  });
});
