import { describe, expect, it } from 'vitest';
import { formatAlertRules, noAlertRules, parseAlertRules } from './alert-rules.js';

describe('alert rules in the URL', () => {
  it('reads each rule’s two levels, and leaves off what is empty, unknown or unreadable', () => {
    expect(parseAlertRules('waiting:3:6,missed:5:,live::60,available:3:1,queues:1:2,waiting2:x')).toEqual({
      waiting: { warning: 3, critical: 6 },
      missed: { warning: 5 },
      live: { critical: 60 },
      available: { warning: 3, critical: 1 },
    });
    expect(parseAlertRules(null)).toEqual(noAlertRules());
    expect(parseAlertRules('waiting:-1:2.5')).toEqual(noAlertRules());
  });

  it('drops a critical level that is not past the warning one', () => {
    expect(parseAlertRules('waiting:6:3,available:1:3').waiting).toEqual({ warning: 6 });
    expect(parseAlertRules('waiting:6:3,available:1:3').available).toEqual({ warning: 1 });
  });

  it('writes only the rules that are on, and reads back what it wrote', () => {
    const rules = { ...noAlertRules(), waiting: { warning: 3, critical: 6 }, available: { critical: 0 } };
    expect(formatAlertRules(rules)).toBe('waiting:3:6,available::0');
    expect(parseAlertRules(formatAlertRules(rules) ?? null)).toEqual(rules);
    expect(formatAlertRules(noAlertRules())).toBeUndefined();
  });
});
