import { describe, expect, it } from 'vitest';
import type { Subscriber } from '../../../contract/subscriber.js';
import { statusOf, warningFor } from './subscriber-status.js';

const maya: Subscriber = {
  providerSubscriberID: 'agt-1',
  firstName: 'Maya',
  lastName: 'Chen',
  email: 'maya@example.com',
  extension: '101',
  number: '15550100101',
  registered: true,
  active: true,
};

describe("a subscriber's status", () => {
  it('says "online unknown", with no warning, where the provider cannot tell whether the phone is registered', () => {
    expect(statusOf({ ...maya, registered: null })).toBe('online unknown');
    expect(warningFor({ ...maya, registered: null })).toBeUndefined();
  });

  it('warns of an offline phone and an inactive account, inactive first', () => {
    expect(statusOf({ ...maya, registered: false })).toBe('offline');
    expect(warningFor({ ...maya, registered: false })).toMatch(/phone is offline/);
    expect(statusOf({ ...maya, registered: null, active: false })).toBe('inactive');
    expect(statusOf(maya)).toBe('registered');
  });
});
