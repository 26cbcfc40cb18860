/**
 * A scheduled report in a cluster, for real: three instances on one PostgreSQL with a report due
 * at start, a test SMTP server that holds the first mail's final reply, and the leader that sends
 * it killed while it waits. The period is sent once afterwards, by the next leader, with the same
 * Message-ID, and never again.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../../../scripts/throwaway-postgres.mjs';
import { Cluster } from '../../testbed/cluster.js';
import { startTestSmtpServer, type TestSmtpServer } from '../test-support/test-smtp-server.js';
import { latestDuePeriod, parseScheduleTime } from './report-schedule.js';

const CLAIM_SECONDS = 10;
/** Six hours ago, on the hour: due at start, and the next period far from due while the test runs. */
const AT = `daily ${String((new Date().getUTCHours() + 18) % 24).padStart(2, '0')}:00`;
const owedPeriod = () => latestDuePeriod('UTC', parseScheduleTime(AT)!, Date.now()).key;

let postgres: ThrowawayPostgres;
let smtp: TestSmtpServer;
let cluster: Cluster;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const query = async <T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> => {
  const client = new pg.Client({ connectionString: postgres.url });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
};

const until = async (what: string, check: () => boolean | Promise<boolean>, timeoutMs = 30_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(100);
  }
};

beforeAll(async () => {
  postgres = await startThrowawayPostgres({ database: 'callboard_reports' });
  smtp = await startTestSmtpServer();
  // Held from the start: the report is due at once, and its first send waits for its 250.
  smtp.hold();
  cluster = await Cluster.start({
    databaseURL: postgres.url,
    instances: 3,
    moreConfig: {
      reports: {
        smtp: { host: '127.0.0.1', port: smtp.port, security: 'none', from: 'Callboard <reports@example.com>' },
        claimSeconds: CLAIM_SECONDS,
        schedules: [
          {
            id: 'nightly',
            account: 'demo',
            application: 'support',
            provider: 'pbx-main',
            at: AT,
            recipients: ['ops@example.com'],
            reports: ['summary'],
          },
        ],
      },
    },
  });
}, 180_000);

afterAll(async () => {
  await cluster?.stop();
  await smtp?.close();
  postgres?.stop();
}, 60_000);

describe('a scheduled report in a cluster of three', () => {
  it("arrives exactly once across the kill of the leader that was sending it, from the next leader, with the first attempt's Message-ID", async () => {
    await smtp.arrivals(1, 60_000);
    expect(smtp.heldCount).toBe(1);
    const [claim] = await query<{ owner: string; status: string; message_id: string }>(
      "select owner, status, message_id from report_sends where schedule_id = 'nightly'",
    );
    expect(claim).toMatchObject({ status: 'sending' });
    const [feed] = await query<{ leader: string }>("select leader from sync_feeds where provider_id = 'pbx-main'");
    // The claimer is the provider's leader: its claim names it.
    expect(claim?.owner.startsWith(`${feed?.leader} `)).toBe(true);
    const victim = cluster.instances.find((instance) => instance.name === feed?.leader);
    if (!victim) throw new Error(`no instance ${feed?.leader}`);

    cluster.kill(victim);
    // Its connection closed before the server's 250: that mail was never accepted.
    await until('the held mail dropped with its connection', () => smtp.heldCount === 0, 10_000);
    expect(smtp.accepted).toHaveLength(0);
    smtp.release();

    // Another instance leads now; once the claim lapses it sends the period.
    await until('the period sent again', () => smtp.accepted.length === 1, (CLAIM_SECONDS + 20) * 1000);
    const [sent] = await query<{ owner: string; status: string; attempts: number; period: string }>(
      "select owner, status, attempts::int as attempts, period from report_sends where schedule_id = 'nightly'",
    );
    expect(sent).toMatchObject({ status: 'sent', attempts: 2, period: owedPeriod() });
    expect(sent?.owner.startsWith(`${victim.name} `)).toBe(false);
    expect(smtp.accepted[0]?.parsed.messageId).toBe(claim?.message_id);
    expect(smtp.accepted[0]?.parsed.subject).toBe(`Demo Co. · Support desk · Main PBX: report "nightly" for ${owedPeriod()}`);

    // No instance sends it again.
    await sleep(CLAIM_SECONDS * 1000);
    expect(smtp.accepted).toHaveLength(1);
    expect(smtp.arrived).toHaveLength(2);
    expect(await query("select 1 from report_sends where schedule_id = 'nightly'")).toHaveLength(1);
  });
});
