/** The SQL condition of a queue selection (and an agent's own calls) on the journal's calls (aliased `k`), as both dialects read it. */
import { sql, type RawBuilder } from 'kysely';
import type { QueueSelection } from '../queues/queue-selection.js';

export const queueCondition = (selection: QueueSelection, alias = 'k'): RawBuilder<unknown> => {
  const column = sql.ref(`${alias}.queue_id`);
  const listed = selection.ids.length === 0 ? sql`1 = 0` : sql`${column} IN (${sql.join(selection.ids.map((id) => sql`${id}`))})`;
  const inQueues = selection.none ? sql`${listed} OR ${column} IS NULL` : listed;
  const own = selection.subscribers ?? [];
  return own.length === 0
    ? sql`(${inQueues})`
    : sql`(${inQueues} OR ${sql.ref(`${alias}.subscriber_id`)} IN (${sql.join(own.map((id) => sql`${id}`))}))`;
};
