import { expect, test } from 'vitest';
import { unknownRules } from './evaluate-alerts.js';

test('a rule is unknown while its figure loads; a service level of no calls (null) is known', () => {
  expect(unknownRules({}).sort()).toEqual(['available', 'live', 'longest-wait', 'missed', 'service-level', 'waiting']);
  expect(unknownRules({ serviceLevel: null, longestWaitMs: 0, waiting: 0, live: 3 }).sort()).toEqual(['available', 'missed']);
});
