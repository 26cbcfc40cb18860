import { beforeEach, describe, expect, it } from 'vitest';
import { AlertTracker } from './alert-tracker.js';
import type { AlertCondition } from './evaluate-alerts.js';

const waiting = (level: 'warning' | 'critical'): AlertCondition => ({ id: 'waiting', level, title: 'x callers waiting', rule: '3 or more' });
const T = 1_000_000;

beforeEach(() => sessionStorage.clear());

describe('AlertTracker', () => {
  it('says since when a rule trips, tells news once, and again when it gets worse', () => {
    const tracker = new AlertTracker();
    expect(tracker.update([waiting('warning')], T).map((n) => n.kind)).toEqual(['tripped']);
    expect(tracker.update([waiting('warning')], T + 1000)).toEqual([]);
    expect(tracker.update([waiting('critical')], T + 2000).map((n) => n.kind)).toEqual(['escalated']);
    expect(tracker.getAlerts()).toMatchObject([{ id: 'waiting', level: 'critical', since: T, acknowledged: false }]);
  });

  it('keeps an acknowledged rule quiet until it clears, then tells it again when it trips again', () => {
    const tracker = new AlertTracker();
    tracker.update([waiting('warning')], T);
    tracker.acknowledge('waiting');
    expect(tracker.getAlerts()).toMatchObject([{ acknowledged: true }]);
    expect(tracker.update([waiting('critical')], T + 1000)).toEqual([]);
    expect(tracker.getAlerts()).toMatchObject([{ level: 'critical', acknowledged: true }]);
    expect(tracker.update([], T + 2000)).toEqual([]);
    expect(tracker.getAlerts()).toEqual([]);
    const again = tracker.update([waiting('warning')], T + 3000);
    expect(again.map((n) => n.kind)).toEqual(['tripped']);
    expect(tracker.getAlerts()).toMatchObject([{ since: T + 3000, acknowledged: false }]);
  });

  it('remembers an acknowledgement across a reload of the tab while the rule stays tripped', () => {
    const first = new AlertTracker();
    first.update([waiting('warning')], T);
    first.acknowledge('waiting');
    const reloaded = new AlertTracker();
    expect(reloaded.update([waiting('warning')], T + 5000)).toEqual([]);
    expect(reloaded.getAlerts()).toMatchObject([{ acknowledged: true }]);
  });

  it('keeps an acknowledgement while its figure is not known yet (a reloaded tab still loading), and forgets it once the rule is known clear', () => {
    const first = new AlertTracker();
    first.update([waiting('warning')], T);
    first.acknowledge('waiting');
    const reloaded = new AlertTracker();
    // Before the figures load, nothing trips and nothing is known.
    expect(reloaded.update([], T + 100, ['waiting', 'live'])).toEqual([]);
    expect(reloaded.getAlerts()).toEqual([]);
    expect(reloaded.update([waiting('warning')], T + 500)).toEqual([]);
    expect(reloaded.getAlerts()).toMatchObject([{ id: 'waiting', acknowledged: true }]);
    // Known clear: the next trip is news again.
    reloaded.update([], T + 1000, ['live']);
    expect(reloaded.update([waiting('warning')], T + 2000).map((n) => n.kind)).toEqual(['tripped']);
  });

  it('tells its readers only when what it shows changed', () => {
    const tracker = new AlertTracker();
    let told = 0;
    tracker.subscribe(() => (told += 1));
    tracker.update([waiting('warning')], T);
    tracker.update([waiting('warning')], T + 1000);
    expect(told).toBe(1);
  });
});
