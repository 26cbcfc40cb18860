/**
 * A provider's health, the same on every instance, and the one rule that changes it. The instance
 * that syncs (alone, or a cluster's leader) applies the rule; a leader commits the result with its
 * sync, so followers serve exactly what it sees.
 */
import { ProviderFailure, type ProviderFailureKind } from '../providers/phone-system.js';

export interface ProviderHealth {
  /** Why the provider's last list failed; none once a list is answered. */
  failure?: ProviderFailure;
  /** What works less well while the calls still arrive (the provider's event socket is down, so they are polled). */
  degraded?: string;
}

/** What changes a provider's health. Pushed updates are none of these: they say nothing of its lists. */
export type HealthEvent =
  | { type: 'listed' }
  | { type: 'list-failed'; failure: ProviderFailure }
  | { type: 'push-connection'; down: string | undefined };

export const HEALTHY: ProviderHealth = {};

export const nextHealth = (health: ProviderHealth, event: HealthEvent): ProviderHealth => {
  switch (event.type) {
    // A list the provider answered ends a failure, however long it lasted.
    case 'listed':
      return health.failure === undefined ? health : withDegraded(health.degraded);
    // A failed list starts a failure, or tells its latest cause.
    case 'list-failed':
      return { ...health, failure: event.failure };
    // The push connection dropped (with what that means), or opened again.
    case 'push-connection':
      return health.degraded === event.down ? health : { ...(health.failure ? { failure: health.failure } : {}), ...withDegraded(event.down) };
  }
};

const withDegraded = (degraded: string | undefined): ProviderHealth => (degraded === undefined ? {} : { degraded });

/** The health as a cluster's feed stores it: plain values, named by whichever instance reads them. */
export interface FeedHealth {
  failure?: { kind: ProviderFailureKind; message: string };
  degraded?: string;
}

export const toFeedHealth = (health: ProviderHealth): FeedHealth => ({
  ...(health.failure ? { failure: { kind: health.failure.kind, message: health.failure.message } } : {}),
  ...withDegraded(health.degraded),
});

export const fromFeedHealth = (health: FeedHealth, providerName: string): ProviderHealth => ({
  ...(health.failure ? { failure: new ProviderFailure(health.failure.kind, health.failure.message, providerName) } : {}),
  ...withDegraded(health.degraded),
});
