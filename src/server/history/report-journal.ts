/**
 * What the reports read besides the calls: every change of an agent's state, and each queue's
 * parameters from when they took force. Both are written once per change and never rewritten, so a
 * report of the past counts with what was true then.
 */
import type { ProviderScope } from '../../contract/paths.js';
import type { HistoryDb } from './history-tables.js';
import { chunks, inScope } from './journal-write.js';

/** One change of an agent's state: the state held from `at` until the agent's next change. */
export interface AgentStateChange {
  subscriberID: string;
  at: number;
  /** A board state, or 'unknown': from here the service does not know the agent (it stops, or the agent left the provider). */
  state: string;
  firstName?: string;
  lastName?: string;
  extension?: string;
}

/** Writes state changes; a change already written (same agent, same moment) is kept as it was. */
export const writeAgentStates = async (db: HistoryDb, scope: ProviderScope, changes: readonly AgentStateChange[]): Promise<void> => {
  for (const part of chunks(changes))
    await db
      .insertInto('agent_states')
      .values(
        part.map((change) => ({
          ...inScope(scope),
          subscriber_id: change.subscriberID,
          at: change.at,
          state: change.state,
          first_name: change.firstName ?? null,
          last_name: change.lastName ?? null,
          extension: change.extension ?? null,
        })),
      )
      .onConflict((oc) => oc.columns(['account_id', 'application_id', 'provider_id', 'subscriber_id', 'at']).doNothing())
      .execute();
};

/**
 * Deletes the agent states over before `cutoff`: each row followed by one of the same agent at or
 * before it. The row in force at the cutoff stays, so the time after it is still counted.
 */
export const pruneAgentStates = async (db: HistoryDb, cutoff: number): Promise<void> => {
  await db
    .deleteFrom('agent_states')
    .where('at', '<', cutoff)
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('agent_states as later')
          .select('later.at')
          .whereRef('later.account_id', '=', 'agent_states.account_id')
          .whereRef('later.application_id', '=', 'agent_states.application_id')
          .whereRef('later.provider_id', '=', 'agent_states.provider_id')
          .whereRef('later.subscriber_id', '=', 'agent_states.subscriber_id')
          .whereRef('later.at', '>', 'agent_states.at')
          .where('later.at', '<=', cutoff),
      ),
    )
    .execute();
};

/** A queue's parameters as they took force at `fromAt`. */
export interface QueueParametersInForce {
  queueID: string;
  fromAt: number;
  name: string;
  answerWithinMs: number;
  shortAbandonMs: number;
  serviceLevelTarget: number;
  members: string[];
}

const same = (a: Omit<QueueParametersInForce, 'fromAt'>, b: Omit<QueueParametersInForce, 'fromAt'>) =>
  a.name === b.name &&
  a.answerWithinMs === b.answerWithinMs &&
  a.shortAbandonMs === b.shortAbandonMs &&
  a.serviceLevelTarget === b.serviceLevelTarget &&
  a.members.length === b.members.length &&
  a.members.every((member, i) => member === b.members[i]);

/** Every row of the queues' parameter history, oldest first per queue. */
export const queueParameterHistory = async (db: HistoryDb, scope: ProviderScope): Promise<QueueParametersInForce[]> => {
  const rows = await db
    .selectFrom('queue_parameters')
    .selectAll()
    .where((eb) => eb.and(inScope(scope)))
    .orderBy('queue_id')
    .orderBy('from_at')
    .execute();
  return rows.map((row) => ({
    queueID: row.queue_id,
    fromAt: Number(row.from_at),
    name: row.name,
    answerWithinMs: Number(row.answer_within_ms),
    shortAbandonMs: Number(row.short_abandon_ms),
    serviceLevelTarget: Number(row.service_level_target),
    members: JSON.parse(row.members) as string[],
  }));
};

/**
 * Records the queues' parameters as configured now, at `at`: a queue whose latest row says the
 * same gets no new row, so a restart with an unchanged config writes nothing. Answers the queue
 * IDs that gained a row.
 */
export const recordQueueParameters = async (
  db: HistoryDb,
  scope: ProviderScope,
  queues: readonly Omit<QueueParametersInForce, 'fromAt'>[],
  at: number,
): Promise<string[]> => {
  const latest = new Map<string, QueueParametersInForce>();
  for (const row of await queueParameterHistory(db, scope)) latest.set(row.queueID, row);
  const changed = queues.filter((queue) => {
    const was = latest.get(queue.queueID);
    return was === undefined || (!same(was, queue) && at > was.fromAt);
  });
  if (changed.length > 0)
    await db
      .insertInto('queue_parameters')
      .values(
        changed.map((queue) => ({
          ...inScope(scope),
          queue_id: queue.queueID,
          from_at: at,
          name: queue.name,
          answer_within_ms: queue.answerWithinMs,
          short_abandon_ms: queue.shortAbandonMs,
          service_level_target: queue.serviceLevelTarget,
          members: JSON.stringify(queue.members),
        })),
      )
      .onConflict((oc) => oc.columns(['account_id', 'application_id', 'provider_id', 'queue_id', 'from_at']).doNothing())
      .execute();
  return changed.map((queue) => queue.queueID);
};
