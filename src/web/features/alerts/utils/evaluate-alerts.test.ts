import { describe, expect, it, test } from 'vitest';
import { formatAlertRules, parseAlertRules } from '../../../lib/alert-rules.js';
import { defaultServiceLevelSettings } from '../../../lib/service-level-settings.js';
import { evaluateAlerts, unknownRules } from './evaluate-alerts.js';

test('a rule is unknown while its figure loads; a service level of no calls (null) is known', () => {
  expect(unknownRules({}).sort()).toEqual(['available', 'live', 'longest-wait', 'missed', 'service-level', 'waiting']);
  expect(unknownRules({ serviceLevel: null, longestWaitMs: 0, waiting: 0, live: 3 }).sort()).toEqual(['available', 'missed']);
});

describe("each queue's rules", () => {
  const support = { queueID: 'support', name: 'Support', serviceLevel: 0.75, target: 0.8, answerWithinSeconds: 20, waiting: 4, missed: 1, live: 9, available: 0 };
  const sales = { ...support, queueID: 'sales', name: 'Sales', serviceLevel: 0.6, target: 0.9, answerWithinSeconds: 10, waiting: 1 };

  it("trips below each queue's own target, naming the queue, critical ten points under it", () => {
    const tripped = evaluateAlerts({}, parseAlertRules(null), defaultServiceLevelSettings, [support, sales, { ...support, queueID: 'billing', name: 'Billing', serviceLevel: null }]);
    expect(tripped.map((c) => [c.id, c.level, c.title])).toEqual([
      ['service-level@sales', 'critical', 'Sales: service level 60 %'],
      ['service-level@support', 'warning', 'Support: service level 75 %'],
    ]);
    expect(tripped[1]?.rule).toBe('below its target 80 % (answered within 20 s, last 15 min)');
  });

  it('reads a count rule that names its queue on that queue alone, and keeps it through a save of the other rules', () => {
    const rules = parseAlertRules('waiting@support:3:6,available@sales:2:1,live:40:60,waiting@Bad!:1:2');
    expect(rules.byQueue).toEqual([
      { id: 'waiting', queueID: 'support', levels: { warning: 3, critical: 6 } },
      { id: 'available', queueID: 'sales', levels: { warning: 2, critical: 1 } },
    ]);
    const tripped = evaluateAlerts({}, rules, defaultServiceLevelSettings, [{ ...support, serviceLevel: 0.9 }, { ...sales, serviceLevel: 0.95, available: 0 }]);
    expect(tripped.map((c) => [c.id, c.level, c.title, c.rule])).toEqual([
      ['available@sales', 'critical', 'Sales: 0 agents available', 'fewer than 1'],
      ['waiting@support', 'warning', 'Support: 4 callers waiting', '3 or more'],
    ].sort((a, b) => (a[1] === b[1] ? 0 : a[1] === 'critical' ? -1 : 1)));
    expect(formatAlertRules(rules)).toBe('live:40:60,waiting@support:3:6,available@sales:2:1');
  });
});
