/**
 * Keeps the agents' rollups true to the rows they sum: a write dated before the end of the
 * latest rolled period un-marks the periods from its date on. The end of the latest rolled period
 * is kept per provider in memory, so a write of the present costs one comparison.
 */
import type { ProviderScope } from '../../contract/paths.js';
import type { RollupPeriod } from './agent-rollups.js';

const keyOf = (scope: ProviderScope) => `${scope.accountID}/${scope.applicationID}/${scope.providerID}`;

/** A roll under way: the earliest date written meanwhile. */
interface Watch {
  key: string;
  earliest: number;
}

export class RollupHorizon {
  /** Per provider, an end no rolled period passes; absent until a first un-roll has learned it. */
  private readonly horizons = new Map<string, number>();
  private readonly watches = new Set<Watch>();

  constructor(private readonly unroll: (scope: ProviderScope, at: number) => Promise<void>) {}

  /** After a write has committed: `earliest` is the earliest date it wrote (a call's start, a state's `at`). */
  async written(scope: ProviderScope, earliest: number | undefined): Promise<void> {
    if (earliest === undefined) return;
    const key = keyOf(scope);
    for (const watch of this.watches) if (watch.key === key) watch.earliest = Math.min(watch.earliest, earliest);
    const horizon = this.horizons.get(key);
    if (horizon !== undefined && earliest >= horizon) return;
    // Once the periods ending after `earliest` are gone, none ends after it.
    this.horizons.set(key, earliest);
    await this.unroll(scope, earliest);
  }

  /**
   * Runs `roll`, which reads a period's rows and marks it rolled; a write inside the period that
   * committed while it ran (its rows read before the write) un-marks it again.
   */
  async rolling(scope: ProviderScope, period: RollupPeriod, roll: () => Promise<void>): Promise<void> {
    const key = keyOf(scope);
    const watch: Watch = { key, earliest: Infinity };
    this.watches.add(watch);
    try {
      await roll();
    } finally {
      this.watches.delete(watch);
    }
    const horizon = this.horizons.get(key);
    if (horizon !== undefined) this.horizons.set(key, Math.max(horizon, period.end));
    if (watch.earliest < period.end) await this.unroll(scope, watch.earliest);
  }

  /** Another instance may roll this provider now (this one follows): what is known of its horizon no longer holds. */
  forget(scope: ProviderScope): void {
    this.horizons.delete(keyOf(scope));
  }
}
