import { describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { ManualClock } from '../clock.js';
import { serviceConfigSchema } from '../config/config-schema.js';
import { createPhoneSystemSimulator } from '../providers/simulator/phone-system-simulator.js';
import { createTestHistory, historyKind } from '../test-support/test-history.js';

const NOW = Date.parse('2026-11-25T12:00:00Z');
const DAY = 86_400_000;
const scope = { accountID: 'a', applicationID: 'app', providerID: 'pbx' };
const config = serviceConfigSchema.parse({
  accounts: [
    {
      id: 'a',
      name: 'A',
      applications: [{ id: 'app', name: 'App', providers: [{ id: 'pbx', name: 'PBX', type: 'simulator', settings: { seed: 5, agents: 8 } }] }],
      tokens: [],
    },
  ],
});

describe('simulator backfill', () => {
  it('is deterministic by seed, holds only calls that ended in the backfilled past, and follows the daily curve', () => {
    const generate = () =>
      createPhoneSystemSimulator({ clock: new ManualClock(NOW), seed: 9, name: 'pbx', agents: 8, backfillMs: 7 * DAY }).takeBackfill();
    const calls = generate();
    expect(calls).toEqual(generate());
    expect(calls.every((c) => c.endedAt !== undefined && c.endedAt <= NOW && c.startedAt >= NOW - 7 * DAY)).toBe(true);
    const atHour = (hour: number) => calls.filter((c) => new Date(c.startedAt).getUTCHours() === hour).length;
    expect(atHour(10)).toBeGreaterThan(2 * atHour(3));
    expect(calls.some((c) => c.isMissedCall)).toBe(true);
  });

  it(`writes the past on a provider's first start only (${historyKind})`, async () => {
    const history = await createTestHistory();
    const start = async (days: number) => {
      const store = await history.open();
      const app = await buildApp({ config, history: store, clock: new ManualClock(NOW), autoSync: false, simulatorBackfillDays: days });
      await app.ready();
      return { app, store };
    };
    try {
      const first = await start(1);
      const journaled = await first.store.callsLiveDuring(scope, NOW - DAY, NOW, 10_000);
      await first.app.close();
      expect(journaled.length).toBeGreaterThan(100);

      const second = await start(1);
      const again = await second.store.callsLiveDuring(scope, NOW - DAY, NOW, 10_000);
      await second.app.close();
      expect(again).toEqual(journaled);
    } finally {
      await history.dispose();
    }
  });
});
