/**
 * Twilio's callbacks on a cluster: two instances on a PostgreSQL of their own behind HAProxy, a
 * Twilio provider on a double of Twilio's API. A callback may reach any instance; one that reaches
 * a follower is stored for the leader, which applies it once, in the commit every instance follows.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../../../scripts/throwaway-postgres.mjs';
import { paths } from '../../contract/paths.js';
import { Cluster, type ClusterInstance } from '../../testbed/cluster.js';
import { TwilioDouble } from '../../testbed/twilio/twilio-double.js';
import { TEST_ACCOUNT_SID, TEST_AUTH_TOKEN, TEST_NUMBER, twilioProviderConfig } from '../../testbed/twilio/twilio-testbed.js';

const scope = { accountID: 'demo', applicationID: 'support', providerID: 'twilio' };
let postgres: ThrowawayPostgres;
let double: TwilioDouble;
let cluster: Cluster;
/** Where the double delivers callbacks signed for the balancer's URL: the balancer itself until a test picks an instance. */
let deliverAt: string | undefined;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const count = async (sql: string): Promise<number> => {
  const client = new pg.Client({ connectionString: postgres.url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(sql, [scope.providerID]);
    return Number(rows[0]?.n ?? 0);
  } finally {
    await client.end();
  }
};

interface Listed {
  callID: string;
  subscriberID?: string;
  answeredAt?: string;
  endedAt?: string;
  isMissedCall: boolean;
}
const listAt = async (instance: ClusterInstance): Promise<Listed[]> => {
  const response = await fetch(`${instance.url}${cluster.callsPath('twilio')}`, { headers: cluster.authorization, signal: AbortSignal.timeout(3000) });
  return ((await response.json()) as { calls: Listed[] }).calls;
};

/** Waits until every instance lists the call as `test` wants; answers how long that took. */
const everywhere = async (callID: string, test: (call: Listed) => boolean): Promise<number> => {
  const started = Date.now();
  for (;;) {
    const seen = await Promise.all(cluster.instances.map(async (instance) => (await listAt(instance)).find((call) => call.callID === callID)));
    if (seen.every((call) => call && test(call))) return Date.now() - started;
    if (Date.now() - started > 5000) throw new Error(`not on every instance within 5 s: ${JSON.stringify(seen)}`);
    await sleep(20);
  }
};

beforeAll(async () => {
  postgres = await startThrowawayPostgres({ database: 'callboard_twilio_cluster' });
  double = await TwilioDouble.start({
    accountSid: TEST_ACCOUNT_SID,
    authToken: TEST_AUTH_TOKEN,
    deliverTo: (url) => (deliverAt ? url.replace(cluster.balancerURL, deliverAt) : url),
  });
  cluster = await Cluster.start({
    databaseURL: postgres.url,
    instances: 2,
    // Listed seldom: what shows within the test came by callback.
    moreProviders: (balancerURL) => [twilioProviderConfig({ apiBaseURL: double.url, webhookBaseURL: balancerURL, syncIntervalMs: 30_000, staleAfterMs: 120_000 })],
  });
});

afterAll(async () => {
  await cluster?.stop();
  await double?.close();
  await postgres?.stop();
});

describe('Twilio callbacks on a cluster', () => {
  it('take effect once, through the leader, when they reach a follower: every instance shows each step at once', async () => {
    const leader = await cluster.leaderOf('twilio');
    const follower = cluster.instances.find((instance) => instance !== leader) as ClusterInstance;
    deliverAt = follower.url;
    const webhook = `${cluster.balancerURL}${paths.webhook('twilio', scope)}`;
    const changesBefore = await count('select count(*)::int as n from sync_changes where provider_id = $1');

    const root = double.inbound({ from: '+15550100001', to: `+${TEST_NUMBER}`, statusCallback: webhook });
    const [agentLeg] = double.dialAgents(root, ['client:ada'], { statusCallback: webhook });
    const ringing = await everywhere(root, (call) => call.subscriberID === 'agt-ada' && call.answeredAt === undefined);
    double.answer(agentLeg as string);
    const answered = await everywhere(root, (call) => call.answeredAt !== undefined);
    double.hangUp(root);
    const ended = await everywhere(root, (call) => call.endedAt !== undefined && !call.isMissedCall);
    await double.settled();
    expect(double.sentCallbacks.length).toBeGreaterThanOrEqual(4);
    expect(double.sentCallbacks.map((sent) => sent.status)).toEqual(double.sentCallbacks.map(() => 204));
    // Pushed, not listed: every step on every instance well before the 30 s list could have told it.
    expect(Math.max(ringing, answered, ended)).toBeLessThan(10_000);

    // Applied by the leader, and removed from the inbox in the same commit. The agent leg's last
    // callback can reach the inbox just as the call shows ended: the leader takes it in its next commit.
    await expect.poll(() => count('select count(*)::int as n from sync_inbox where provider_id = $1'), { timeout: 5000 }).toBe(0);
    const changes = await count('select count(*)::int as n from sync_changes where provider_id = $1');
    expect(changes - changesBefore).toBeGreaterThanOrEqual(3);
    expect(await count(`select count(*)::int as n from calls where provider_id = $1 and answered_at is not null and ended_at is not null and is_missed = 0`)).toBe(1);

    // The same callback delivered again, at the other instance: taken, and nothing changes anywhere.
    const again = double.sentCallbacks.find((sent) => sent.params.CallStatus === 'in-progress' && sent.params.ParentCallSid === root);
    deliverAt = leader.url;
    double.post(again?.url as string, again?.params as Record<string, string>);
    await double.settled();
    expect(double.sentCallbacks.at(-1)?.status).toBe(204);
    await sleep(500);
    expect(await count('select count(*)::int as n from sync_changes where provider_id = $1')).toBe(changes);
    expect(await count('select count(*)::int as n from sync_inbox where provider_id = $1')).toBe(0);
    expect(double.violations).toEqual([]);
  });
});
