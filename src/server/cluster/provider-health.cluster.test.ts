/**
 * A provider's health on a cluster: three instances on a PostgreSQL of their own behind HAProxy,
 * a Twilio provider on a double of Twilio's API and an Asterisk provider on a double of ARI. Every
 * instance must show what the leader sees: a failure while lists fail, even as pushed updates keep
 * changing the calls, and "slower updates" while the leader's event socket is down.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../../../scripts/throwaway-postgres.mjs';
import type { ServerSentEvent } from '../../contract/event-stream-parser.js';
import { paths } from '../../contract/paths.js';
import { AriDouble } from '../../testbed/asterisk/ari-double.js';
import { ARI_PASSWORD, ARI_USER, asteriskProviderConfig, endpointOf, TEST_AGENTS as ASTERISK_AGENTS } from '../../testbed/asterisk/asterisk-testbed.js';
import { Cluster, type ClusterInstance } from '../../testbed/cluster.js';
import { TwilioDouble } from '../../testbed/twilio/twilio-double.js';
import { TEST_ACCOUNT_SID, TEST_AUTH_TOKEN, TEST_NUMBER, twilioProviderConfig } from '../../testbed/twilio/twilio-testbed.js';
import { openStream, type StreamClient } from '../test-support/stream-client.js';

const scope = { accountID: 'demo', applicationID: 'support', providerID: 'twilio' };
let postgres: ThrowawayPostgres;
let twilio: TwilioDouble;
let ari: AriDouble;
let cluster: Cluster;
/** Where the double delivers callbacks signed for the balancer's URL: the balancer itself until a test picks an instance. */
let deliverAt: string | undefined;

interface Status {
  providerID: string;
  available: boolean;
  problem?: { code: string; detail?: string };
  degraded?: string;
}

/** A stream of one provider opened at one instance, and the provider's health as it last told it. */
interface Watched {
  instance: ClusterInstance;
  stream: StreamClient;
  statuses: () => Status[];
  /** The health as the stream last told it: healthy until a status event says otherwise. */
  health: () => { failing: boolean; degraded: string | undefined };
}

const watch = async (instance: ClusterInstance, providerID: string): Promise<Watched> => {
  const stream = await openStream(`${instance.url}/v1/accounts/demo/applications/support/calls/stream?providers=${providerID}`, cluster.authorization);
  expect(stream.status).toBe(200);
  const statuses = () =>
    stream.events.filter((event: ServerSentEvent) => event.event === 'status').map((event) => JSON.parse(event.data) as Status);
  return {
    instance,
    stream,
    statuses,
    health: () => {
      const last = statuses().at(-1);
      return { failing: last?.problem !== undefined, degraded: last?.degraded };
    },
  };
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it holds; `seen` says what was there when it gives up. */
const until = async (what: string, check: () => boolean, seen: () => unknown, timeoutMs = 20_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms; seen: ${JSON.stringify(seen())}`);
    await sleep(50);
  }
};

const healthEverywhere = (watched: Watched[]) => watched.map((w) => ({ instance: w.instance.name, ...w.health() }));

const callListed = (watched: Watched, callID: string) =>
  watched.stream.events.some((event) => (event.event === 'snapshot' || event.event === 'changes') && event.data.includes(`"callID":"${callID}"`));

beforeAll(async () => {
  postgres = await startThrowawayPostgres({ database: 'callboard_health_cluster' });
  twilio = await TwilioDouble.start({
    accountSid: TEST_ACCOUNT_SID,
    authToken: TEST_AUTH_TOKEN,
    deliverTo: (url) => (deliverAt ? url.replace(cluster.balancerURL, deliverAt) : url),
  });
  ari = await AriDouble.start({ username: ARI_USER, password: ARI_PASSWORD, endpoints: ASTERISK_AGENTS.map(endpointOf) });
  cluster = await Cluster.start({
    databaseURL: postgres.url,
    instances: 3,
    centers: [],
    moreProviders: (balancerURL) => [
      // Listed often, so a failing list shows within a second; served from its last list for two minutes.
      twilioProviderConfig({ apiBaseURL: twilio.url, webhookBaseURL: balancerURL, syncIntervalMs: 500, staleAfterMs: 120_000 }),
      asteriskProviderConfig({ id: 'pbx', ariURL: ari.url, staleAfterMs: 120_000 }),
    ],
  });
}, 240_000);

afterAll(async () => {
  await cluster?.stop();
  await twilio?.close();
  await ari?.stop();
  postgres?.stop();
}, 60_000);

describe.sequential('a provider’s health on a cluster of three', () => {
  it('is the same at every instance while lists fail and callbacks keep changing the calls', async () => {
    const leader = await cluster.leaderOf('twilio');
    const follower = cluster.instances.find((instance) => instance !== leader) as ClusterInstance;
    const watched = await Promise.all(cluster.instances.map((instance) => watch(instance, 'twilio')));
    try {
      twilio.outage = true;
      await until('every instance showing the failure', () => watched.every((w) => w.health().failing), () => healthEverywhere(watched));
      const toldBefore = watched.map((w) => w.statuses().length);

      // Callbacks reach a follower, which stores them for the leader; each drained batch is a commit every instance follows.
      deliverAt = follower.url;
      const webhook = `${cluster.balancerURL}${paths.webhook('twilio', scope)}`;
      const root = twilio.inbound({ from: '+15550100001', to: `+${TEST_NUMBER}`, statusCallback: webhook });
      const [agentLeg] = twilio.dialAgents(root, ['client:ada'], { statusCallback: webhook });
      await until('the call on every instance', () => watched.every((w) => callListed(w, root)), () => healthEverywhere(watched));
      twilio.answer(agentLeg as string);
      await sleep(1000);
      twilio.hangUp(root);
      await twilio.settled();
      await sleep(1500);

      // Lists still fail: no instance may have said the provider recovered meanwhile.
      const toldSince = watched.map((w, i) => ({ instance: w.instance.name, statuses: w.statuses().slice(toldBefore[i]) }));
      expect(toldSince.flatMap(({ instance, statuses }) => statuses.filter((status) => !status.problem).map(() => instance))).toEqual([]);
      expect(healthEverywhere(watched).every((health) => health.failing)).toBe(true);

      twilio.outage = false;
      await until('every instance showing the recovery', () => watched.every((w) => !w.health().failing), () => healthEverywhere(watched));
    } finally {
      twilio.outage = false;
      deliverAt = undefined;
      for (const w of watched) w.stream.close();
    }
  });

  it('shows "slower updates" at a follower while the leader’s event socket is down, and clears it when the socket reopens', async () => {
    const leader = await cluster.leaderOf('pbx');
    const followers = cluster.instances.filter((instance) => instance !== leader);
    const watched = await Promise.all(cluster.instances.map((instance) => watch(instance, 'pbx')));
    try {
      await until('the leader’s event socket open', () => ari.openSockets === 1, () => ari.openSockets);
      ari.refuseEvents = true;
      ari.cutEvents();
      await until('"degraded" on every instance', () => watched.every((w) => w.health().degraded !== undefined), () => healthEverywhere(watched));
      // A stream opened at a follower now starts with it too.
      const late = await watch(followers[0] as ClusterInstance, 'pbx');
      await until('"degraded" on a stream opened now', () => late.health().degraded !== undefined, () => late.statuses());
      late.stream.close();
      expect(healthEverywhere(watched).every((health) => !health.failing)).toBe(true);

      ari.refuseEvents = false;
      await until('"degraded" cleared on every instance', () => watched.every((w) => w.health().degraded === undefined), () => healthEverywhere(watched));
    } finally {
      ari.refuseEvents = false;
      for (const w of watched) w.stream.close();
    }
  });
});
