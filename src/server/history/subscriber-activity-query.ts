/** Calls per subscriber over a window (by start time), counted in the database. */
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { ProviderScope } from '../../contract/paths.js';
import type { QueueSelection } from '../queues/queue-selection.js';
import type { HistoryDb } from './history-tables.js';
import { queueCondition } from './queue-condition.js';

export interface SubscriberActivityRow {
  subscriberID: string;
  firstName?: string;
  lastName?: string;
  extension?: string;
  calls: number;
  outbound: number;
  missed: number;
  talkMs: number;
}

export const subscriberActivity = async (
  db: HistoryDb,
  scope: ProviderScope,
  from: number,
  to: number,
  now: number,
  queues?: QueueSelection,
): Promise<SubscriberActivityRow[]> => {
  const rows = await db
    .selectFrom('calls')
    .select((eb) => [
      'subscriber_id',
      eb.fn.max('subscriber_first_name').as('first_name'),
      eb.fn.max('subscriber_last_name').as('last_name'),
      eb.fn.max('subscriber_extension').as('extension'),
      eb.fn.countAll().as('calls'),
      eb.fn.sum('is_outbound').as('outbound'),
      eb.fn.sum('is_missed').as('missed'),
      sql<number>`SUM(CASE WHEN answered_at IS NULL THEN 0 ELSE COALESCE(ended_at, CAST(${now} AS BIGINT)) - answered_at END)`.as('talk_ms'),
    ])
    .where('account_id', '=', scope.accountID)
    .where('application_id', '=', scope.applicationID)
    .where('provider_id', '=', scope.providerID)
    .where('subscriber_id', 'is not', null)
    .where('started_at', '>=', from)
    .where('started_at', '<', to)
    .$if(queues !== undefined, (query) => query.where(queueCondition(queues as QueueSelection, 'calls') as RawBuilder<SqlBool>))
    .groupBy('subscriber_id')
    .orderBy('calls', 'desc')
    .orderBy('subscriber_id')
    .execute();
  return rows.map((row) => {
    const activity: SubscriberActivityRow = {
      subscriberID: row.subscriber_id as string,
      calls: Number(row.calls),
      outbound: Number(row.outbound),
      missed: Number(row.missed),
      talkMs: Number(row.talk_ms),
    };
    if (row.first_name !== null) activity.firstName = row.first_name;
    if (row.last_name !== null) activity.lastName = row.last_name;
    if (row.extension !== null) activity.extension = row.extension;
    return activity;
  });
};
