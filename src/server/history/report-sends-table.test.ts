import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HistoryStore } from './history-store.js';
import { createTestHistory, historyKind, type TestHistory } from '../test-support/test-history.js';

const key = { scheduleID: 'morning', period: '2026-11-27' };
const claimAs = (store: HistoryStore, owner: string, now: number, lapsedBefore = now - 60_000) =>
  store.reportSends.claim({ ...key, owner, now, lapsedBefore, messageID: `<${owner}@callboard>` });

describe(`the reports' sent-log (${historyKind})`, () => {
  let history: TestHistory;
  let a: HistoryStore;
  let b: HistoryStore;
  beforeEach(async () => {
    history = await createTestHistory();
    a = await history.open();
    // A second instance: a store of its own on the same database.
    b = await history.open();
  });
  afterEach(async () => {
    await a.close();
    await b.close();
    await history.dispose();
  });

  it('lets one of two instances racing for a period claim it, and neither once it was sent', async () => {
    for (let round = 0; round < 5; round += 1) {
      const period = { ...key, period: `2026-11-2${round}` };
      const claims = await Promise.all([
        a.reportSends.claim({ ...period, owner: 'a', now: 1000, lapsedBefore: 0, messageID: '<a@callboard>' }),
        b.reportSends.claim({ ...period, owner: 'b', now: 1000, lapsedBefore: 0, messageID: '<b@callboard>' }),
      ]);
      expect(claims.filter((claim) => claim !== undefined)).toHaveLength(1);
    }
    expect(await claimAs(a, 'a', 1000)).toEqual({ attempt: 1, messageID: '<a@callboard>' });
    expect(await claimAs(b, 'b', 1000)).toBeUndefined();
    expect(await b.reportSends.markSent(key, 'b', 2000)).toBe(false);
    expect(await a.reportSends.markSent(key, 'a', 2000)).toBe(true);
    expect(await claimAs(b, 'b', 10_000_000, 10_000_000)).toBeUndefined();
    expect(await b.reportSends.read(key)).toMatchObject({
      status: 'sent',
      owner: 'a',
      attempts: 1,
      sentAt: 2000,
      messageID: '<a@callboard>',
    });
  });

  it("gives a lapsed claim to another instance, with the period's first Message-ID", async () => {
    await claimAs(a, 'a', 1000);
    expect(await claimAs(b, 'b', 50_000, 1000)).toBeUndefined();
    expect(await claimAs(b, 'b', 70_000, 1001)).toEqual({ attempt: 2, messageID: '<a@callboard>' });
    // The first claimer, back from a stall, can no longer record the period as its own.
    expect(await a.reportSends.markSent(key, 'a', 71_000)).toBe(false);
    expect(await b.reportSends.markSent(key, 'b', 72_000)).toBe(true);
  });

  it('keeps a failed period until its next attempt is due, then lets one instance retry it', async () => {
    await claimAs(a, 'a', 1000);
    expect(await a.reportSends.markFailed(key, 'a', '421 try later', 31_000)).toBe(true);
    expect(await b.reportSends.read(key)).toMatchObject({
      status: 'failed',
      attempts: 1,
      nextAttemptAt: 31_000,
      lastError: '421 try later',
    });
    expect(await claimAs(b, 'b', 30_999)).toBeUndefined();
    const retries = await Promise.all([claimAs(a, 'a', 31_000), claimAs(b, 'b', 31_000)]);
    expect(retries.filter((claim) => claim !== undefined)).toEqual([{ attempt: 2, messageID: '<a@callboard>' }]);
  });
});
