/**
 * The sent-log of scheduled reports, the same SQL on both dialects: one row per schedule and
 * period. An instance claims a period (a row 'sending' in its name) before it sends, and marks it
 * 'sent' or 'failed' after. A claim is one conditional write, so of instances racing for a period
 * one wins; a claim older than the lease, or a failure whose retry time has come, may be claimed again.
 */
import type { HistoryDb } from './history-tables.js';

export type ReportSendStatus = 'sending' | 'sent' | 'failed';

export interface ReportSendKey {
  scheduleID: string;
  /** "2026-11-28" or "2026-W48". */
  period: string;
}

export interface ReportSendClaim {
  /** 1 for the first attempt at the period. */
  attempt: number;
  /** The Message-ID every attempt at the period sends with: the first claim's. */
  messageID: string;
}

export interface ReportSendRecord extends ReportSendKey {
  status: ReportSendStatus;
  owner: string | undefined;
  claimedAt: number | undefined;
  attempts: number;
  nextAttemptAt: number | undefined;
  sentAt: number | undefined;
  messageID: string | undefined;
  lastError: string | undefined;
}

export interface ClaimRequest extends ReportSendKey {
  /** The claiming instance (its name and a start's own ID). */
  owner: string;
  now: number;
  /** A claim taken before this has lapsed: its instance died or stalled. */
  lapsedBefore: number;
  /** The Message-ID to record if this is the period's first claim. */
  messageID: string;
}

const keyOf = ({ scheduleID, period }: ReportSendKey) => ({ schedule_id: scheduleID, period }) as const;
const optional = <T>(value: T | null, as: (value: T) => T = (v) => v) => (value === null ? undefined : as(value));

export class ReportSendsTable {
  constructor(private readonly db: HistoryDb) {}

  /** Claims the period for `owner`; undefined when it was sent, or another holds it, or its retry is not due. */
  async claim(request: ClaimRequest): Promise<ReportSendClaim | undefined> {
    const inserted = await this.db
      .insertInto('report_sends')
      .values({
        ...keyOf(request),
        status: 'sending',
        owner: request.owner,
        claimed_at: request.now,
        attempts: 1,
        message_id: request.messageID,
      })
      .onConflict((oc) => oc.columns(['schedule_id', 'period']).doNothing())
      .returning(['attempts', 'message_id'])
      .executeTakeFirst();
    const row =
      inserted ??
      (await this.db
        .updateTable('report_sends')
        .set((eb) => ({
          status: 'sending',
          owner: request.owner,
          claimed_at: request.now,
          attempts: eb('attempts', '+', 1),
          next_attempt_at: null,
        }))
        .where('schedule_id', '=', request.scheduleID)
        .where('period', '=', request.period)
        .where((eb) =>
          eb.or([
            eb.and([eb('status', '=', 'failed'), eb('next_attempt_at', '<=', request.now)]),
            eb.and([eb('status', '=', 'sending'), eb('claimed_at', '<', request.lapsedBefore)]),
          ]),
        )
        .returning(['attempts', 'message_id'])
        .executeTakeFirst());
    return row ? { attempt: Number(row.attempts), messageID: row.message_id ?? request.messageID } : undefined;
  }

  /** Records the period sent; false when `owner` no longer held the claim (it lapsed and another took it). */
  async markSent(key: ReportSendKey, owner: string, at: number): Promise<boolean> {
    const result = await this.ownClaim(key, owner)
      .set({ status: 'sent', sent_at: at, last_error: null, next_attempt_at: null })
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Records the attempt failed, and when the period may be claimed again. */
  async markFailed(key: ReportSendKey, owner: string, error: string, nextAttemptAt: number): Promise<boolean> {
    const result = await this.ownClaim(key, owner)
      .set({ status: 'failed', last_error: error, next_attempt_at: nextAttemptAt })
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async read(key: ReportSendKey): Promise<ReportSendRecord | undefined> {
    const row = await this.db
      .selectFrom('report_sends')
      .selectAll()
      .where('schedule_id', '=', key.scheduleID)
      .where('period', '=', key.period)
      .executeTakeFirst();
    if (!row) return undefined;
    const number = (value: number | null) => optional(value, Number);
    return {
      scheduleID: row.schedule_id,
      period: row.period,
      status: row.status as ReportSendStatus,
      owner: optional(row.owner),
      claimedAt: number(row.claimed_at),
      attempts: Number(row.attempts),
      nextAttemptAt: number(row.next_attempt_at),
      sentAt: number(row.sent_at),
      messageID: optional(row.message_id),
      lastError: optional(row.last_error),
    };
  }

  private ownClaim(key: ReportSendKey, owner: string) {
    return this.db
      .updateTable('report_sends')
      .where('schedule_id', '=', key.scheduleID)
      .where('period', '=', key.period)
      .where('owner', '=', owner)
      .where('status', '=', 'sending');
  }
}
