import { describe, expect, it } from 'vitest';
import { createDirectory } from './directory.js';
import { createRandom } from './random.js';
import {
  businessShare,
  callerPatienceMs,
  dailyShare,
  inboundCaller,
  inboundRingMs,
  planPlacedCall,
  remoteResult,
  talkMs,
} from './traffic-model.js';

const MONDAY = Date.parse('2026-03-02T00:00:00Z');
const SATURDAY = Date.parse('2026-03-07T00:00:00Z');
const HOUR = 3_600_000;

const sorted = (count: number, draw: () => number) => Array.from({ length: count }, draw).sort((a, b) => a - b);

describe('dailyShare (UTC hours of simulated time)', () => {
  const at = (day: number, hours: number) => dailyShare(day + hours * HOUR);

  it('peaks late morning and early afternoon with a lunch dip between', () => {
    expect(at(MONDAY, 10)).toBe(1);
    expect(at(MONDAY, 12)).toBeLessThan(at(MONDAY, 11));
    expect(at(MONDAY, 12)).toBeLessThan(at(MONDAY, 14));
    expect(at(MONDAY, 14)).toBeGreaterThan(0.9);
  });

  it('ramps up in the morning and declines in the evening', () => {
    expect(at(MONDAY, 7)).toBeLessThan(at(MONDAY, 8));
    expect(at(MONDAY, 8)).toBeLessThan(at(MONDAY, 9));
    expect(at(MONDAY, 16)).toBeGreaterThan(at(MONDAY, 17));
    expect(at(MONDAY, 17)).toBeGreaterThan(at(MONDAY, 18));
  });

  it('is much quieter at 03:00 than at 11:00, but never below its floor', () => {
    expect(at(MONDAY, 11)).toBeGreaterThan(3 * at(MONDAY, 3));
    expect(businessShare(MONDAY + 3 * HOUR)).toBeLessThan(0.2);
    for (let hour = 0; hour < 24 * 7; hour += 0.5) expect(at(MONDAY, hour)).toBeGreaterThanOrEqual(0.2);
  });

  it('makes weekends lighter', () => {
    expect(at(SATURDAY, 11)).toBeLessThan(0.6 * at(MONDAY, 11));
    expect(at(SATURDAY + 24 * HOUR, 11)).toBeLessThan(at(SATURDAY, 11));
  });
});

describe('call durations', () => {
  it('rings inbound calls at an agent for 1.5 to 18 s, about 5 s at the median: the queue, not the ring, makes a caller wait', () => {
    const random = createRandom(1);
    const rings = sorted(10_000, () => inboundRingMs(random));
    expect(rings[0]).toBeGreaterThanOrEqual(1500);
    expect(rings.at(-1)).toBeLessThanOrEqual(18_000);
    expect(rings[5000]).toBeGreaterThan(4000);
    expect(rings[5000]).toBeLessThan(6000);
  });

  it('talks about 3 minutes at the median with a long tail past 20 minutes', () => {
    const random = createRandom(2);
    const talks = sorted(20_000, () => talkMs(random, false));
    expect(talks[10_000]).toBeGreaterThan(160_000);
    expect(talks[10_000]).toBeLessThan(200_000);
    const overTwentyMinutes = talks.filter((ms) => ms > 20 * 60_000).length / talks.length;
    expect(overTwentyMinutes).toBeGreaterThan(0.005);
    expect(overTwentyMinutes).toBeLessThan(0.05);
    expect(talks.at(-1)).toBeLessThanOrEqual(3 * HOUR);
  });

  it('lets callers wait a couple of minutes on average', () => {
    const random = createRandom(3);
    const patience = sorted(10_000, () => callerPatienceMs(random));
    const mean = patience.reduce((sum, ms) => sum + ms, 0) / patience.length;
    expect(mean).toBeGreaterThan(120_000);
    expect(mean).toBeLessThan(180_000);
  });
});

describe('who calls', () => {
  it('mixes withheld numbers, known contacts and strangers', () => {
    const { contacts } = createDirectory({ seed: 1, agents: 24, emailDomain: 'example.com' });
    const random = createRandom(4);
    const callers = Array.from({ length: 5000 }, () => inboundCaller(random, contacts));
    const withheld = callers.filter((caller) => caller.number === '').length;
    const known = callers.filter((caller) => caller.contactID !== undefined).length;
    expect(withheld).toBeGreaterThan(100);
    expect(withheld).toBeLessThan(350);
    expect(known).toBeGreaterThan(1300);
    expect(known).toBeLessThan(1900);
    expect(callers.every((caller) => (caller.name === undefined) === (caller.contactID === undefined))).toBe(true);
  });

  it('answers most outbound calls and fails the rest busy or unanswered', () => {
    const random = createRandom(5);
    const results = Array.from({ length: 5000 }, () => remoteResult(random));
    const share = (result: string) => results.filter((r) => r === result).length / results.length;
    expect(share('answer')).toBeGreaterThan(0.65);
    expect(share('answer')).toBeLessThan(0.75);
    expect(share('busy')).toBeGreaterThan(0.07);
    expect(share('no-answer')).toBeGreaterThan(0.15);
  });
});

describe('planPlacedCall', () => {
  it('follows a script and draws what it leaves out', () => {
    const plan = planPlacedCall(createRandom(6), false, { agent: 'no-answer', remote: 'busy', remoteRingMs: 1234 });
    expect(plan).toMatchObject({ agentAnswers: false, remote: 'busy', remoteRingMs: 1234 });
    expect(plan.agentRingMs).toBeGreaterThanOrEqual(1500);
    expect(plan.agentRingMs).toBeLessThanOrEqual(5000);
  });

  it('is answered by the agent less often when they are already on a call', () => {
    const random = createRandom(7);
    const answered = (busy: boolean) =>
      Array.from({ length: 4000 }, () => planPlacedCall(random, busy).agentAnswers).filter(Boolean).length;
    expect(answered(false)).toBeGreaterThan(answered(true) + 400);
  });
});
