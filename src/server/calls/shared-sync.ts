/**
 * A provider's sync shared by the instances of a cluster: one instance leads (polls the provider
 * and commits each sync), the others follow what it committed. What the sync loop needs of the
 * cluster, whatever carries it.
 */
import type { CallUpdate, ProviderCall } from '../providers/phone-system.js';
import type { JournalBatch } from './journal-batch.js';
import type { FeedHealth } from './provider-health.js';

/** Where the shared feed stands: its log's epoch and position, and the provider's health as the leader sees it. */
export interface FeedState {
  epoch: string;
  seq: number;
  /** When the provider last answered the leader; undefined before it ever did. */
  takenAt: number | undefined;
  health: FeedHealth;
}

/** One committed change: the stream event's data, and the calls it added, changed or removed. */
export interface FeedChange {
  seq: number;
  at: number;
  data: string;
  upserts: ProviderCall[];
  removed: string[];
}

/**
 * What a follower reads to catch up: the changes after its position, or, when its position
 * cannot be continued (another epoch, or older than what is kept), a checkpoint and the changes after it.
 */
export interface FeedRead {
  state: FeedState;
  checkpoint?: { seq: number; calls: ProviderCall[] };
  changes: FeedChange[];
}

/** What the leader commits for one sync, in one transaction. */
export interface FeedCommit {
  /** The position the leader stands at: the commit is refused unless the feed stands there too. */
  after: number;
  takenAt: number;
  batch: JournalBatch;
  change?: FeedChange;
  /** The provider's health after this sync, which every instance serves with it. */
  health: FeedHealth;
  /** The listed calls after this sync, written now and then so a follower need not replay every change. */
  checkpoint?: readonly ProviderCall[];
  /** The stored deliveries of pushed updates this sync applied: removed from the inbox in the same transaction. */
  delivered?: readonly string[];
}

/** Pushed updates stored for the leader, oldest first, and the IDs of the deliveries that carried them. */
export interface Delivered {
  ids: string[];
  updates: CallUpdate[];
}

/** The write came from an instance that no longer leads: it was refused, and nothing of it was written. */
export class NotLeading extends Error {
  constructor(reason: string) {
    super(`no longer leads this provider's sync: ${reason}`);
    this.name = 'NotLeading';
  }
}

export interface SyncRoles {
  /** This instance now holds the lead. */
  lead(): void;
  /** This instance lost the lead (its connection to the database dropped, say). */
  follow(): void;
  /** The leader committed something: read it. */
  changed(): void;
  /** Another instance asks the leader to poll soon. */
  pollSoon(): void;
  /** An instance stored pushed updates for the leader: drain them. */
  delivered(): void;
}

/** One provider's seat in the cluster. */
export interface SharedSync {
  /**
   * Joins the election; returns the function that leaves it (and lets go of the lead). The seat
   * raises the feed's term before it calls `lead`: from then on only this instance may commit.
   */
  join(roles: SyncRoles): () => Promise<void>;
  /** What was committed after `from` (nothing held: from the checkpoint); undefined before any leader wrote. */
  read(from: { epoch: string; seq: number } | undefined): Promise<FeedRead | undefined>;
  /** Commits one sync, fenced by this instance's term; throws NotLeading when another leads now. */
  commit(step: FeedCommit): Promise<void>;
  /** Records the provider's health when it changed with no sync to commit (a failed list, its event socket down), fenced like a commit. */
  commitHealth(health: FeedHealth): Promise<void>;
  /** Lets go of the lead (the leader found itself out of step with the feed); the election goes on. */
  resign(): Promise<void>;
  /** Asks whichever instance leads to poll soon (a call was placed here). */
  requestSync(): void;
  /**
   * Stores updates the provider pushed to this instance, for the leader to apply, and tells it;
   * resolves once they are stored (a webhook is acknowledged then), whichever instance leads.
   */
  deliver(updates: readonly CallUpdate[]): Promise<void>;
  /** The leader's read of the stored deliveries, oldest first, at most `limit` of them; undefined when there are none. */
  takeDelivered(limit: number): Promise<Delivered | undefined>;
}
