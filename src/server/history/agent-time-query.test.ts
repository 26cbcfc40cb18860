import { describe, expect, it } from 'vitest';
import { startOfDayIn } from '../../contract/time-zone.js';
import type { ProviderCall } from '../providers/phone-system.js';
import { createRandom } from '../providers/simulator/random.js';
import { providerCall } from '../test-support/provider-call.js';
import { useHistoryStore } from '../test-support/test-history.js';
import type { AgentTimeRow } from './agent-time-query.js';
import type { AgentStateChange } from './report-journal.js';

const scope = { accountID: 'acme', applicationID: 'center', providerID: 'pbx' };
const SEC = 1000;
const MIN = 60 * SEC;
const HOUR = 60 * MIN;
const at = (text: string) => Date.parse(text);

// Europe/Berlin's clocks go from 02:00 to 03:00 on 29 March 2026: that day has 23 hours.
const DAY_FROM = at('2026-03-28T23:00:00Z');
const DAY_TO = at('2026-03-29T22:00:00Z');

const change = (subscriberID: string, when: string, state: string): AgentStateChange => ({
  subscriberID,
  at: at(when),
  state,
  firstName: subscriberID.toUpperCase(),
  lastName: 'Agent',
  extension: subscriberID.slice(-1),
});

/** Time per state by the definitions, walked change by change: each state holds until the agent's next change; before the first, unknown. */
const byDefinition = (changes: readonly AgentStateChange[], from: number, end: number): Map<string, Record<string, number>> => {
  const byAgent = new Map<string, AgentStateChange[]>();
  for (const c of changes) byAgent.set(c.subscriberID, [...(byAgent.get(c.subscriberID) ?? []), c]);
  const result = new Map<string, Record<string, number>>();
  for (const [id, list] of byAgent) {
    const sorted = [...list].sort((a, b) => a.at - b.at);
    const spans: [string, number, number][] = [['unknown', -Infinity, sorted[0]?.at ?? end]];
    sorted.forEach((c, i) => spans.push([c.state, c.at, sorted[i + 1]?.at ?? Infinity]));
    const ms: Record<string, number> = {};
    for (const [state, a, b] of spans) {
      const part = Math.min(b, end) - Math.max(a, from);
      if (part > 0) ms[state] = (ms[state] ?? 0) + part;
    }
    result.set(id, ms);
  }
  return result;
};

const total = (ms: Record<string, number>) => Object.values(ms).reduce((a, b) => a + b, 0);
const byID = (rows: AgentTimeRow[]) => new Map(rows.map((row) => [row.subscriberID, row]));

describe('agents’ time from the journal of states and calls', () => {
  const store = useHistoryStore();

  it('counts a clock-change day in Berlin by the definitions: every state, unknown before first sight and across a stop', async () => {
    expect(startOfDayIn('Europe/Berlin', DAY_FROM + HOUR)).toBe(DAY_FROM);
    expect(startOfDayIn('Europe/Berlin', DAY_TO + HOUR)).toBe(DAY_TO);
    const changes = [
      change('a1', '2026-03-28T20:00:00Z', 'available'),
      // Rings across the clock change (02:00 local became 03:00 at 01:00Z).
      change('a1', '2026-03-29T00:59:50Z', 'ringing'),
      change('a1', '2026-03-29T01:00:00Z', 'on-call'),
      change('a1', '2026-03-29T01:05:00Z', 'available'),
      change('a1', '2026-03-29T06:00:00Z', 'offline'),
      change('a1', '2026-03-29T08:00:00Z', 'inactive'),
      change('a1', '2026-03-29T09:00:00Z', 'available'),
      // The service stopped for an hour.
      change('a1', '2026-03-29T20:00:00Z', 'unknown'),
      change('a1', '2026-03-29T21:00:00Z', 'available'),
      change('a1', '2026-03-29T22:30:00Z', 'offline'),
      // First seen at 10:00Z.
      change('a2', '2026-03-29T10:00:00Z', 'available'),
      // Gone before the day, and nothing in it: not listed.
      change('a4', '2026-03-20T10:00:00Z', 'available'),
      change('a4', '2026-03-21T10:00:00Z', 'unknown'),
    ];
    await store().recordAgentStates(scope, changes);
    const rows = byID(await store().agentTime(scope, { from: DAY_FROM, to: DAY_TO, now: DAY_TO + HOUR }));
    expect([...rows.keys()].sort()).toEqual(['a1', 'a2']);
    expect(rows.get('a1')?.stateMs).toEqual({
      available: 2 * HOUR - 10 * SEC + 4 * HOUR + 55 * MIN + 11 * HOUR + HOUR,
      ringing: 10 * SEC,
      'on-call': 5 * MIN,
      offline: 2 * HOUR,
      inactive: HOUR,
      unknown: HOUR,
    });
    expect(rows.get('a2')?.stateMs).toEqual({ unknown: 11 * HOUR, available: 12 * HOUR });
    const expected = byDefinition(changes, DAY_FROM, DAY_TO);
    for (const id of ['a1', 'a2']) {
      expect(rows.get(id)?.stateMs).toEqual(expected.get(id));
      expect(total(rows.get(id)?.stateMs ?? {})).toBe(23 * HOUR);
    }
    expect(rows.get('a1')).toMatchObject({ firstName: 'A1', lastName: 'Agent', extension: '1' });
  });

  it('counts the calls that started in the range, by the definitions', async () => {
    const t = (hhmm: string) => at(`2026-03-29T${hhmm}Z`);
    const calls: ProviderCall[] = [
      providerCall('in-answered', t('10:05:00'), { subscriberID: 'a2', answeredAt: t('10:05:05'), endedAt: t('10:10:05') }),
      providerCall('in-missed', t('11:00:00'), { subscriberID: 'a2', endedAt: t('11:00:20'), isMissedCall: true }),
      providerCall('out', t('12:00:00'), { subscriberID: 'a2', isOutbound: true, answeredAt: t('12:00:10'), endedAt: t('12:01:10') }),
      providerCall('out-unanswered', t('12:30:00'), { subscriberID: 'a2', isOutbound: true, endedAt: t('12:30:30') }),
      // Answered and still going: answered, no talk time yet.
      providerCall('in-live', t('21:50:00'), { subscriberID: 'a2', answeredAt: t('21:50:02') }),
      // Still ringing: not unanswered yet.
      providerCall('in-ringing', t('21:59:00'), { subscriberID: 'a2' }),
      // Before the range: not counted.
      providerCall('before', at('2026-03-28T22:59:00Z'), { subscriberID: 'a2', answeredAt: at('2026-03-28T22:59:05Z'), endedAt: t('00:10:00') }),
      // Only a call: listed, unknown all the range.
      providerCall('a3-call', t('15:00:00'), { subscriberID: 'a3', subscriberFirstName: 'Ann', subscriberLastName: 'Three', answeredAt: t('15:00:03'), endedAt: t('15:02:03') }),
    ];
    await store().importCalls(scope, calls);
    await store().recordAgentStates(scope, [change('a2', '2026-03-29T10:00:00Z', 'available')]);
    const rows = byID(await store().agentTime(scope, { from: DAY_FROM, to: DAY_TO, now: DAY_TO }));
    expect(rows.get('a2')).toMatchObject({ answeredCalls: 2, unansweredCalls: 1, outboundPlaced: 2, talkMs: 6 * MIN, handledCalls: 2 });
    expect(rows.get('a3')).toMatchObject({
      firstName: 'Ann',
      lastName: 'Three',
      stateMs: { unknown: 23 * HOUR },
      answeredCalls: 1,
      talkMs: 2 * MIN,
      handledCalls: 1,
    });
  });

  it('stops counting at now, and agrees with the definitions on random timelines of many agents', async () => {
    const random = createRandom(7);
    const states = ['offline', 'inactive', 'available', 'ringing', 'on-call', 'unknown'];
    const changes: AgentStateChange[] = [];
    for (let agent = 0; agent < 40; agent += 1) {
      let when = DAY_FROM - random.int(0, 6 * HOUR);
      while (when < DAY_TO + HOUR) {
        changes.push({ subscriberID: `r${agent}`, at: when, state: random.pick(states) });
        when += random.int(1, 40 * MIN);
      }
    }
    await store().recordAgentStates(scope, changes);
    const now = DAY_FROM + 17 * HOUR + 123;
    const rows = byID(await store().agentTime(scope, { from: DAY_FROM, to: DAY_TO, now }));
    const expected = byDefinition(changes, DAY_FROM, now);
    // An agent whose range is all unknown from a row before it is not listed; every other is, with the same figures.
    for (const [id, ms] of expected) {
      if (Object.keys(ms).join() === 'unknown' && changes.some((c) => c.subscriberID === id && c.at < DAY_FROM)) continue;
      expect(rows.get(id)?.stateMs, id).toEqual(ms);
      expect(total(rows.get(id)?.stateMs ?? {})).toBe(now - DAY_FROM);
    }
  });
});
