import { describe, expect, it } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import type { SyncRole } from '../calls/provider-sync.js';
import { ManualClock } from '../clock.js';
import { useHistoryStore } from '../test-support/test-history.js';
import { queuesConfigSchema } from './queue-config.js';
import { QueueDirectory } from './queue-directory.js';
import { startQueueParameterRecording, type QueueParameterSource } from './queue-parameter-recorder.js';

const store = useHistoryStore();
const T0 = Date.parse('2026-11-22T09:00:00.000Z');
const silent = { warn: () => undefined } as unknown as FastifyBaseLogger;

const source = (providerID: string, role: { role: SyncRole }, queues: unknown[]): QueueParameterSource => ({
  scope: { accountID: 'acme', applicationID: 'support', providerID },
  queueDirectory: new QueueDirectory(queuesConfigSchema.parse(queues)),
  writesJournal: () => role.role !== 'follower',
});

describe('recording queue parameters', () => {
  it('writes the queues of the providers this instance writes for, and of a follower once it leads', async () => {
    const clock = new ManualClock(T0);
    const follower = { role: 'follower' as SyncRole };
    const alone = source('pbx', { role: 'solo' }, [{ id: 'support', name: 'Support', members: ['agt-1'], answerWithinSeconds: 30 }]);
    const led = source('trunk', follower, [{ id: 'sales', name: 'Sales' }]);
    const recording = startQueueParameterRecording({ history: store(), sources: [alone, led], clock, log: silent, lookAgainMs: 60_000 });
    await recording.recordDue();
    expect(await store().queueParameterHistory(alone.scope)).toEqual([
      { queueID: 'support', fromAt: T0, name: 'Support', answerWithinMs: 30_000, shortAbandonMs: 5000, serviceLevelTarget: 0.8, members: ['agt-1'] },
    ]);
    expect(await store().queueParameterHistory(led.scope)).toEqual([]);
    follower.role = 'leader';
    clock.advance(1000);
    await recording.recordDue();
    expect((await store().queueParameterHistory(led.scope)).map((row) => [row.queueID, row.fromAt])).toEqual([['sales', T0 + 1000]]);
    await recording.stop();
  });

  it('writes nothing new when a restart finds the same parameters, and a row from the change when they differ', async () => {
    const clock = new ManualClock(T0);
    const first = startQueueParameterRecording({ history: store(), sources: [source('pbx', { role: 'solo' }, [{ id: 'support', name: 'Support' }])], clock, log: silent });
    await first.recordDue();
    await first.stop();
    clock.advance(60_000);
    const same = source('pbx', { role: 'solo' }, [{ id: 'support', name: 'Support' }]);
    const again = startQueueParameterRecording({ history: store(), sources: [same], clock, log: silent });
    await again.recordDue();
    await again.stop();
    expect((await store().queueParameterHistory(same.scope)).map((row) => row.fromAt)).toEqual([T0]);
    clock.advance(60_000);
    const changed = startQueueParameterRecording({
      history: store(),
      sources: [source('pbx', { role: 'solo' }, [{ id: 'support', name: 'Support', serviceLevelTarget: 0.9 }])],
      clock,
      log: silent,
    });
    await changed.recordDue();
    await changed.stop();
    expect((await store().queueParameterHistory(same.scope)).map((row) => [row.fromAt, row.serviceLevelTarget])).toEqual([
      [T0, 0.8],
      [T0 + 120_000, 0.9],
    ]);
  });
});
