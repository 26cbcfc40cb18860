import { describe, expect, it } from 'vitest';
import type { PastAgentState, ProviderCall } from '../phone-system.js';
import { AgentStateTrail } from './agent-state-trail.js';
import { CallCenter } from './call-center.js';
import { createDirectory } from './directory.js';
import { absencesOn, dayOf } from './presence.js';
import { sipHostFor } from './run-identity.js';
import { simulatePast, type PastRun } from './simulated-past.js';

const NOW = Date.parse('2026-11-25T12:00:00Z');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const SEED = 11;
const AGENTS = 30;
const range = { since: NOW - 3 * DAY, from: NOW - 2 * DAY, to: NOW - DAY };

const run: PastRun = {
  seed: SEED,
  dialMode: 'two-step',
  agents: AGENTS,
  traffic: 1,
  speed: 1,
  keepEndedMs: 120_000,
  warmupMs: HOUR,
  emailDomain: 'example.com',
  queues: [],
  sipHost: sipHostFor('pbx'),
  origin: NOW,
  handover: NOW - 120_000,
  range,
};

/** When the subscriber's part of a connected call began, as the board counts it; undefined: never connected. */
const connectedAt = (call: ProviderCall): number | undefined =>
  call.isOutbound
    ? Math.min(call.subscriberAnsweredAt ?? Infinity, call.answeredAt ?? Infinity)
    : call.answeredAt;

/** Each agent's rows as stretches [at, next row's at or the range's end). */
const stretchesOf = (rows: readonly PastAgentState[]) => {
  const byAgent = new Map<string, PastAgentState[]>();
  for (const row of rows) byAgent.set(row.subscriberID, [...(byAgent.get(row.subscriberID) ?? []), row]);
  return new Map(
    [...byAgent].map(([id, own]) => [id, own.map((row, i) => ({ state: row.state, from: row.at, to: own[i + 1]?.at ?? range.to }))]),
  );
};

const past = [...simulatePast(run)];
const calls = past.flatMap((batch) => batch.calls);
const rows = past.flatMap((batch) => batch.agentStates ?? []);
const stretches = stretchesOf(rows);
const stateAt = (id: string, at: number) => stretches.get(id)?.find((s) => s.from <= at && at < s.to)?.state;

describe("the simulated past's agent states", { timeout: 30_000 }, () => {
  it('open the range with every agent, stay inside it and go forward in time per agent', () => {
    expect(stretches.size).toBe(AGENTS);
    for (const own of stretches.values()) {
      expect(own[0]?.from).toBe(range.from);
      expect(own.every((s) => s.from < s.to)).toBe(true);
    }
    expect(rows.every((row) => row.at >= range.from && row.at < range.to)).toBe(true);
  });

  it('are on-call wherever a call of the past had the agent connected, and ringing just before an answer', () => {
    const connected = calls.filter((call) => call.subscriberID !== undefined && connectedAt(call) !== undefined);
    expect(connected.length).toBeGreaterThan(1000);
    for (const call of connected) {
      const start = connectedAt(call) as number;
      const mid = Math.floor((start + (call.endedAt as number)) / 2);
      if (mid >= range.from) expect([call.callID, stateAt(call.subscriberID as string, mid)]).toEqual([call.callID, 'on-call']);
      if (!call.isOutbound && start - 1 >= range.from) expect(stateAt(call.subscriberID as string, start - 1)).toBe('ringing');
    }
  });

  it('add up to the connected time of the calls, agent by agent', () => {
    const connectedMs = new Map<string, number>();
    for (const call of calls) {
      const start = connectedAt(call);
      if (call.subscriberID === undefined || start === undefined) continue;
      const overlap = Math.min(call.endedAt as number, range.to) - Math.max(start, range.from);
      connectedMs.set(call.subscriberID, (connectedMs.get(call.subscriberID) ?? 0) + Math.max(0, overlap));
    }
    for (const [id, own] of stretches) {
      const onCall = own.filter((s) => s.state === 'on-call').reduce((sum, s) => sum + s.to - s.from, 0);
      // A call that ends after the range's end is not among its calls, but its agent is on it until the end.
      expect(Math.abs(onCall - (connectedMs.get(id) ?? 0))).toBeLessThanOrEqual(onCallAtEnd(id));
    }
  });

  it('leave the calls as they were: following the agents draws nothing from the run', () => {
    const callsOf = (trail: AgentStateTrail | undefined) => {
      const ended: ProviderCall[] = [];
      const center = new CallCenter(
        { seed: SEED, dialMode: 'two-step', traffic: 1, keepEndedMs: 120_000, callIDPrefix: 't', sipHost: 'pbx.sim', onCallEnded: (call) => ended.push(call), ...(trail ? { onAgentChanged: trail.observe } : {}) },
        createDirectory({ seed: SEED, agents: AGENTS, emailDomain: 'example.com' }),
        range.from,
      );
      center.advanceTo(range.from + 6 * HOUR);
      return ended;
    };
    const followed = callsOf(new AgentStateTrail((at) => at));
    expect(followed.length).toBeGreaterThan(100);
    expect(followed).toEqual(callsOf(undefined));
  });

  it('are offline only while the agent is away by their presence plan, and available most of a working day', () => {
    const directory = createDirectory({ seed: SEED, agents: AGENTS, emailDomain: 'example.com' });
    directory.subscribers.forEach((subscriber, index) => {
      const own = stretches.get(subscriber.providerSubscriberID) ?? [];
      const keepsPresence = index === 0 || !subscriber.registered || !subscriber.active;
      if (keepsPresence) return;
      const absences = [-1, 0, 1].flatMap((d) => absencesOn(SEED, dayOf(range.from) + d, index, AGENTS));
      for (const offline of own.filter((s) => s.state === 'offline'))
        expect(absences.some((a) => a.from <= offline.from && offline.to <= Math.max(a.to, offline.from + 1))).toBe(true);
      const time = (state: string) => own.filter((s) => s.state === state).reduce((sum, s) => sum + s.to - s.from, 0);
      expect(time('offline')).toBeGreaterThan(HOUR);
      expect(time('offline')).toBeLessThan(6 * HOUR);
      expect(time('available') + time('on-call') + time('ringing')).toBeGreaterThan(18 * HOUR);
    });
  });
});

/** How long the agent's last stretch is on-call up to the range's end: a call still connected then ended after it. */
const onCallAtEnd = (id: string): number => {
  const last = stretches.get(id)?.at(-1);
  return last?.state === 'on-call' ? last.to - last.from : 0;
};
