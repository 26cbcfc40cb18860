/**
 * Where a provider's new state goes once the sync has made it, by the role this instance syncs in:
 * alone, published to readers and then journaled; as a cluster's leader, committed to the shared
 * feed first (journal batch, change, position and health in one transaction) and published only once
 * committed, as every follower will publish it. The provider's health travels the same way.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { JournalWriter, PendingBatch } from './journal-writer.js';
import type { LiveCalls, NextState } from './live-calls.js';
import { toFeedHealth, type ProviderHealth } from './provider-health.js';
import { NotLeading, type SharedSync } from './shared-sync.js';

/** A cluster's leader writes the listed calls whole after this many changes, or this long, since the last time. */
const CHECKPOINT_EVERY_CHANGES = 200;
const CHECKPOINT_EVERY_MS = 60_000;

/** A new state, ready to be made known. */
export interface MadeState {
  next: NextState;
  pending: PendingBatch;
  takenAt: number;
  /** The provider's health as of this state. */
  health: ProviderHealth;
  /** The stored deliveries of pushed updates this state applied (a leader's drain of the shared inbox). */
  delivered?: readonly string[];
}

export interface StateOutlet {
  /** Whether the first state is compared with no calls at all: a cluster's first snapshot is a change, so followers learn of every call through the log. */
  readonly firstFromEmpty: boolean;
  /** Makes the state known; resolves whether it was. */
  makeKnown(made: MadeState): Promise<boolean>;
  /** Makes known a health that changed with no new state (a failed list, the push connection). */
  tellHealth(health: ProviderHealth): Promise<void>;
  /** The period it serves ended: a step still under way then makes nothing known through it. */
  retire(): void;
}

export class SoloOutlet implements StateOutlet {
  readonly firstFromEmpty = false;

  constructor(
    private readonly live: LiveCalls,
    private readonly journal: JournalWriter,
  ) {}

  async makeKnown({ next, pending, health }: MadeState): Promise<boolean> {
    this.live.publish(next, health);
    await this.journal.write(pending);
    return true;
  }

  async tellHealth(health: ProviderHealth): Promise<void> {
    this.live.setHealth(health);
  }

  retire(): void {
    // Alone, there is no one else to make a state known: what a last step makes of it is served.
  }
}

export interface LeaderOutletOptions {
  shared: SharedSync;
  live: LiveCalls;
  journal: JournalWriter;
  providerID: string;
  log: FastifyBaseLogger;
  /** The feed refused a write: another instance leads now. */
  onLostLead: () => void;
}

/** One lead's outlet: retired when the lead ends, so a step still under way then writes nothing more. */
export class LeaderOutlet implements StateOutlet {
  readonly firstFromEmpty = true;
  /** This lead's last checkpoint: undefined until it writes its first. */
  private checkpointed: { seq: number; at: number } | undefined;
  private retired = false;

  constructor(private readonly options: LeaderOutletOptions) {}

  retire(): void {
    this.retired = true;
  }

  async makeKnown(made: MadeState): Promise<boolean> {
    const { live, journal } = this.options;
    if (!(await this.commit(made))) {
      journal.lost();
      return false;
    }
    journal.wrote(made.pending);
    live.publish(made.next, made.health);
    return true;
  }

  async tellHealth(health: ProviderHealth): Promise<void> {
    if (this.retired) return;
    try {
      await this.options.shared.commitHealth(toFeedHealth(health));
    } catch (error) {
      if (error instanceof NotLeading) {
        this.lose(error);
        return;
      }
      this.options.log.error({ provider: this.options.providerID, reason: (error as Error).message }, 'provider health could not be shared');
    }
    this.options.live.setHealth(health);
  }

  private async commit({ next, pending, takenAt, health, delivered }: MadeState): Promise<boolean> {
    if (this.retired) return false;
    const after = this.options.live.position.seq;
    const { entry } = next;
    const seq = entry ? entry.seq : after;
    const checkpointDue =
      !this.checkpointed || seq - this.checkpointed.seq >= CHECKPOINT_EVERY_CHANGES || takenAt - this.checkpointed.at >= CHECKPOINT_EVERY_MS;
    try {
      await this.options.shared.commit({
        after,
        takenAt,
        batch: pending.batch,
        health: toFeedHealth(health),
        ...(entry ? { change: { seq: entry.seq, at: entry.at, data: entry.data, upserts: next.upserted, removed: next.removed } } : {}),
        ...(checkpointDue ? { checkpoint: next.snapshot.calls } : {}),
        ...(delivered === undefined ? {} : { delivered }),
      });
    } catch (error) {
      if (error instanceof NotLeading) this.lose(error);
      else this.options.log.error({ provider: this.options.providerID, reason: (error as Error).message }, 'sync could not be committed');
      return false;
    }
    if (checkpointDue) this.checkpointed = { seq, at: takenAt };
    return true;
  }

  private lose(error: NotLeading): void {
    this.options.log.warn({ provider: this.options.providerID, reason: error.message }, 'sync not committed');
    this.retire();
    this.options.onLostLead();
  }
}
