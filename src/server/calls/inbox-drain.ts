/**
 * A cluster leader's drain of the shared inbox: the updates other instances received from the
 * provider, applied in batches, each in a commit that also removes it. It looks when an instance
 * says it stored something, and every few lists in case a notice was lost.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Delivered, SharedSync } from './shared-sync.js';

/** Deliveries taken per commit. */
const DRAIN_BATCH = 500;
/** A leader looks in the inbox after this many lists even without a notice. */
const DRAIN_EVERY_LISTS = 10;

export interface InboxDrainOptions {
  shared: SharedSync;
  /** Runs a step after the sync's steps before it. */
  step: (run: () => Promise<void>) => Promise<void>;
  /** Whether the sync may apply what it takes now: it leads, and has listed since it took the lead. */
  canApply: () => boolean;
  /** Applies a batch in a commit that removes it; resolves whether it was committed. */
  apply: (delivered: Delivered) => Promise<boolean>;
  providerID: string;
  log: FastifyBaseLogger;
}

export class InboxDrain {
  /** Something may wait in the inbox: a notice came, or a lead began, since it was last found empty. */
  private mayHold = true;
  private queued = false;
  private listsSinceDrain = 0;

  constructor(private readonly options: InboxDrainOptions) {}

  /** An instance stored updates (or a new lead begins, with whatever the last leader left): drain soon. */
  delivered(): void {
    this.mayHold = true;
    this.queue();
  }

  /** A list was taken in: drain what may wait, or look anyway every DRAIN_EVERY_LISTS lists. */
  listed(): void {
    this.listsSinceDrain += 1;
    if (this.mayHold || this.listsSinceDrain >= DRAIN_EVERY_LISTS) this.delivered();
  }

  private queue(): void {
    if (this.queued || !this.options.canApply()) return;
    this.queued = true;
    void this.options.step(async () => {
      this.queued = false;
      if (!this.options.canApply()) return;
      this.listsSinceDrain = 0;
      for (;;) {
        let taken: Delivered | undefined;
        try {
          taken = await this.options.shared.takeDelivered(DRAIN_BATCH);
        } catch (error) {
          this.options.log.error({ provider: this.options.providerID, reason: (error as Error).message }, 'shared inbox unreadable');
          return;
        }
        if (!taken) {
          this.mayHold = false;
          return;
        }
        if (!(await this.options.apply(taken)) || taken.ids.length < DRAIN_BATCH) return;
      }
    });
  }
}
