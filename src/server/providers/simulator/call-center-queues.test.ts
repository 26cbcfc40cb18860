import { describe, expect, it } from 'vitest';
import { demoConfig } from '../../config/load-config.js';
import type { ProviderCall } from '../phone-system.js';
import { CallCenter, type SimulatedQueue } from './call-center.js';
import { createDirectory } from './directory.js';

const HOUR = 3_600_000;
// A Wednesday, in simulated time.
const DAY = Date.UTC(2026, 10, 25);

const runDay = (queues: readonly SimulatedQueue[], agents = 24, seed = 1) => {
  const ended: ProviderCall[] = [];
  const center = new CallCenter(
    { seed, dialMode: 'two-step', traffic: 1, keepEndedMs: 120_000, callIDPrefix: 'q', sipHost: 'pbx.test', queues, onCallEnded: (call) => ended.push(call) },
    createDirectory({ seed, agents, emailDomain: 'example.com' }),
    DAY - HOUR,
  );
  center.advanceTo(DAY + 24 * HOUR);
  return ended.filter((call) => call.startedAt >= DAY);
};

const demoQueues = () => {
  const provider = demoConfig().config.accounts[0]!.applications[0]!.providers[0]!;
  return provider.queues;
};

describe('the simulated center with queues', () => {
  it("offers each queue's callers on its numbers, rings only its members, and lets the others take direct calls", () => {
    const queues = demoQueues().map(({ id, name, numbers, members }) => ({ id, name, numbers, members }));
    const calls = runDay(queues);
    const inbound = calls.filter((call) => !call.isOutbound);
    for (const queue of queues) {
      const mine = inbound.filter((call) => call.queueID === queue.id);
      expect(mine.length, queue.id).toBeGreaterThan(200);
      expect(new Set(mine.map((call) => call.queueName))).toEqual(new Set([queue.name]));
      expect(new Set(mine.map((call) => call.calledNumber))).toEqual(new Set(queue.numbers.map((number) => number.replace('+', ''))));
      const rang = new Set(mine.flatMap((call) => call.subscriberID ?? []));
      expect([...rang].every((agent) => queue.members.includes(agent)), `${queue.id} rang only its members`).toBe(true);
    }
    const direct = inbound.filter((call) => call.queueID === undefined);
    expect(direct.length / inbound.length).toBeGreaterThan(0.06);
    expect(direct.length / inbound.length).toBeLessThan(0.2);
    expect(direct.every((call) => call.calledNumber === undefined)).toBe(true);
    // Agents in no queue take direct calls only.
    const inNoQueue = new Set(['agt-0001', 'agt-0023', 'agt-0024']);
    expect(inbound.filter((call) => call.queueID !== undefined && inNoQueue.has(call.subscriberID ?? '')).length).toBe(0);
    expect(direct.some((call) => inNoQueue.has(call.subscriberID ?? ''))).toBe(true);
    expect(calls.filter((call) => call.isOutbound).every((call) => call.queueID === undefined)).toBe(true);
  });

  it("gives each queue its own busy hour, where one queue of the demo falls below its target while another stays above", () => {
    const config = demoQueues();
    const calls = runDay(config.map(({ id, name, numbers, members }) => ({ id, name, numbers, members })));
    const busiest = (id: string) => {
      const perHour = new Map<number, ProviderCall[]>();
      for (const call of calls.filter((c) => c.queueID === id)) {
        const hour = Math.floor((call.startedAt - DAY) / HOUR);
        perHour.set(hour, [...(perHour.get(hour) ?? []), call]);
      }
      return [...perHour.entries()].sort((a, b) => b[1].length - a[1].length)[0]!;
    };
    const level = (id: string, hourCalls: readonly ProviderCall[]) => {
      const queue = config.find((q) => q.id === id)!;
      const answered = hourCalls.filter((c) => c.answeredAt !== undefined);
      const abandoned = hourCalls.filter((c) => c.answeredAt === undefined && c.endedAt! - c.startedAt >= queue.shortAbandonSeconds * 1000);
      const within = answered.filter((c) => c.answeredAt! - c.startedAt <= queue.answerWithinSeconds * 1000).length;
      return { level: within / (answered.length + abandoned.length), target: queue.serviceLevelTarget };
    };
    const peaks = Object.fromEntries(config.map((queue) => [queue.id, busiest(queue.id)[0]]));
    // Support is busiest in the morning, Sales in the afternoon.
    expect(peaks.support).toBeLessThan(12);
    expect(peaks.sales).toBeGreaterThanOrEqual(13);
    const sales = level('sales', busiest('sales')[1]);
    const billing = level('billing', busiest('billing')[1]);
    expect(sales.level).toBeLessThan(sales.target);
    expect(billing.level).toBeGreaterThanOrEqual(billing.target);
  });

  it('draws no queue and no dialed number for a center without queues, the same at every run', () => {
    const withNone = runDay([], 12, 5);
    expect(withNone.every((call) => call.queueID === undefined && call.calledNumber === undefined)).toBe(true);
    expect(runDay([], 12, 5).map((call) => call.callID)).toEqual(withNone.map((call) => call.callID));
  });
});
