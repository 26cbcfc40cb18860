import { describe, expect, it } from 'vitest';
import { ProviderFailure } from '../providers/phone-system.js';
import { fromFeedHealth, HEALTHY, nextHealth, toFeedHealth } from './provider-health.js';

const down = new ProviderFailure('unavailable', 'no answer');

describe('a provider’s health', () => {
  it('fails at a failed list, keeps the latest cause, and recovers only at a list answered', () => {
    const failing = nextHealth(HEALTHY, { type: 'list-failed', failure: down });
    expect(failing).toEqual({ failure: down });
    const again = new ProviderFailure('timeout', 'too slow');
    expect(nextHealth(failing, { type: 'list-failed', failure: again })).toEqual({ failure: again });
    expect(nextHealth(failing, { type: 'listed' })).toEqual({});
  });

  it('keeps a failure while the push connection comes and goes, and a degradation while lists fail and recover', () => {
    const degraded = nextHealth(HEALTHY, { type: 'push-connection', down: 'socket closed' });
    const both = nextHealth(degraded, { type: 'list-failed', failure: down });
    expect(both).toEqual({ failure: down, degraded: 'socket closed' });
    expect(nextHealth(both, { type: 'push-connection', down: undefined })).toEqual({ failure: down });
    expect(nextHealth(both, { type: 'listed' })).toEqual({ degraded: 'socket closed' });
  });

  it('answers the very same health when nothing changed, so a reader can tell at a glance', () => {
    expect(nextHealth(HEALTHY, { type: 'listed' })).toBe(HEALTHY);
    const degraded = nextHealth(HEALTHY, { type: 'push-connection', down: 'socket closed' });
    expect(nextHealth(degraded, { type: 'push-connection', down: 'socket closed' })).toBe(degraded);
  });

  it('travels a cluster’s feed as plain values, named on arrival by the provider it is about', () => {
    const feed = toFeedHealth({ failure: down, degraded: 'socket closed' });
    expect(JSON.parse(JSON.stringify(feed))).toEqual({ failure: { kind: 'unavailable', message: 'no answer' }, degraded: 'socket closed' });
    const read = fromFeedHealth(feed, 'Main PBX');
    expect(read.failure).toBeInstanceOf(ProviderFailure);
    expect(read.failure).toMatchObject({ kind: 'unavailable', message: 'no answer', providerName: 'Main PBX' });
    expect(read.degraded).toBe('socket closed');
    expect(fromFeedHealth(toFeedHealth(HEALTHY), 'Main PBX')).toEqual({});
  });
});
