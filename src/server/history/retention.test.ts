import { describe, expect, it } from 'vitest';
import { ManualClock } from '../clock.js';
import { serviceConfigSchema } from '../config/config-schema.js';
import { historyKind, useHistoryStore } from '../test-support/test-history.js';
import { pruneOnce } from './retention.js';

const DAY = 86_400_000;
const NOW = Date.parse('2026-11-22T09:00:00Z');
const scope = { accountID: 'a', applicationID: 'app', providerID: 'pbx' };
const ended = (id: string, endedAt: number) => ({
  callID: id,
  providerCallID: id,
  isOutbound: false,
  isMissedCall: false,
  remoteNumber: '1',
  startedAt: endedAt - 60_000,
  endedAt,
});

const openStore = useHistoryStore();

describe(`retention (${historyKind})`, () => {
  it('keeps 90 days unless the config says otherwise', () => {
    const config = serviceConfigSchema.parse({ accounts: [{ id: 'a', name: 'A', applications: [{ id: 'x', name: 'X', providers: [{ id: 'p', name: 'P', type: 'simulator' }] }], tokens: [] }] });
    expect(config.history.retentionDays).toBe(90);
  });

  it('prunes the calls that ended before the retention, and logs how many', async () => {
    await openStore().importCalls(scope, [ended('old', NOW - 91 * DAY), ended('kept', NOW - 89 * DAY)]);
    const logged: unknown[] = [];
    const log = { info: (entry: unknown) => logged.push(entry), error: () => undefined } as never;
    await pruneOnce({ store: openStore(), retentionDays: 90, clock: new ManualClock(NOW), log });
    expect((await openStore().callsLiveDuring(scope, 0, NOW, 10)).map((c) => c.callID)).toEqual(['kept']);
    expect(logged).toEqual([{ removed: 1, retentionDays: 90 }]);
  });
});
