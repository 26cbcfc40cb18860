/**
 * How each agent spent a range, from the journal of agent states and the calls: time per state
 * (the definitions of `contract/reports.ts`), and the calls that rang them, that they answered and
 * placed. Three statements both dialects run as written; the read stays within the range's own
 * rows (the state in force at its start is one row per agent, found by the primary key).
 */
import { sql } from 'kysely';
import type { ProviderScope } from '../../contract/paths.js';
import type { HistoryDb } from './history-tables.js';
import { inScopeSql } from './journal-write.js';

export interface AgentTimeRequest {
  from: number;
  /** The end of the range; time past `now` is not counted (it has not happened). */
  to: number;
  now: number;
}

/** Milliseconds per state; 'unknown' includes the time before the agent's first row. */
export type StateMs = Record<string, number>;

export interface AgentTimeRow {
  subscriberID: string;
  firstName?: string;
  lastName?: string;
  extension?: string;
  /** Time per journaled state within [from, min(to, now)), 'unknown' included; adds up to that span. */
  stateMs: StateMs;
  answeredCalls: number;
  unansweredCalls: number;
  outboundPlaced: number;
  talkMs: number;
  /** Answered calls (inbound and outbound) that ended: the divisor of the average handle time. */
  handledCalls: number;
}

interface Names {
  firstName?: string;
  lastName?: string;
  extension?: string;
}

const namesOf = (row: { first_name: string | null; last_name: string | null; extension: string | null }): Names => ({
  ...(row.first_name === null ? {} : { firstName: row.first_name }),
  ...(row.last_name === null ? {} : { lastName: row.last_name }),
  ...(row.extension === null ? {} : { extension: row.extension }),
});

/**
 * Each state's time over the rows inside the range: a row holds until the agent's next row, the
 * last one until the end; also each agent's first row in the range, and the names on their last.
 */
const statesWithin = (db: HistoryDb, scope: ProviderScope, from: number, end: number) =>
  sql<{
    subscriber_id: string;
    state: string;
    ms: number | string;
    first_at: number | string;
    first_name: string | null;
    last_name: string | null;
    extension: string | null;
  }>`
    SELECT subscriber_id, state,
      SUM(COALESCE(next_at, CAST(${end} AS BIGINT)) - at) AS ms,
      MIN(at) AS first_at,
      MAX(CASE WHEN next_at IS NULL THEN first_name END) AS first_name,
      MAX(CASE WHEN next_at IS NULL THEN last_name END) AS last_name,
      MAX(CASE WHEN next_at IS NULL THEN extension END) AS extension
    FROM (
      SELECT s.subscriber_id, s.at, s.state, s.first_name, s.last_name, s.extension,
        LEAD(s.at) OVER (PARTITION BY s.subscriber_id ORDER BY s.at) AS next_at
      FROM agent_states s
      WHERE ${inScopeSql(scope, 's')} AND s.at >= ${from} AND s.at < ${end}
    ) spans
    GROUP BY subscriber_id, state`.execute(db);

/**
 * The row in force at `from` for each agent who had one: their latest before it. The agents are
 * found by skipping from one to the next along the primary key, and each one's row by seeks
 * (subqueries, so no planner drives a join from the whole history), so
 * the cost grows with the agents, not with the history before `from` (an hour's rollup reads it).
 */
const stateAtStart = (db: HistoryDb, scope: ProviderScope, from: number) =>
  sql<{ subscriber_id: string; state: string; first_name: string | null; last_name: string | null; extension: string | null }>`
    WITH RECURSIVE agents(subscriber_id) AS (
      SELECT (SELECT s.subscriber_id FROM agent_states s WHERE ${inScopeSql(scope, 's')} ORDER BY s.subscriber_id LIMIT 1)
      UNION ALL
      SELECT (SELECT s.subscriber_id FROM agent_states s WHERE ${inScopeSql(scope, 's')} AND s.subscriber_id > agents.subscriber_id ORDER BY s.subscriber_id LIMIT 1)
      FROM agents WHERE agents.subscriber_id IS NOT NULL
    ),
    latest AS (
      SELECT a.subscriber_id,
        (SELECT s.at FROM agent_states s WHERE ${inScopeSql(scope, 's')} AND s.subscriber_id = a.subscriber_id AND s.at < ${from} ORDER BY s.at DESC LIMIT 1) AS at
      FROM agents a WHERE a.subscriber_id IS NOT NULL
    )
    SELECT l.subscriber_id, ${sql.join(
      (['state', 'first_name', 'last_name', 'extension'] as const).map(
        (column) =>
          sql`(SELECT ${sql.ref(`s.${column}`)} FROM agent_states s WHERE ${inScopeSql(scope, 's')} AND s.subscriber_id = l.subscriber_id AND s.at = l.at) AS ${sql.ref(column)}`,
      ),
    )}
    FROM latest l
    WHERE l.at IS NOT NULL`.execute(db);

/** Each subscriber's calls that started in [from, to). */
const callsWithin = (db: HistoryDb, scope: ProviderScope, from: number, to: number) =>
  sql<{
    subscriber_id: string;
    answered: number | string;
    unanswered: number | string;
    outbound: number | string;
    talk_ms: number | string | null;
    handled: number | string;
    first_name: string | null;
    last_name: string | null;
    extension: string | null;
  }>`
    SELECT subscriber_id,
      SUM(CASE WHEN is_outbound = 0 AND answered_at IS NOT NULL THEN 1 ELSE 0 END) AS answered,
      SUM(CASE WHEN is_outbound = 0 AND answered_at IS NULL AND ended_at IS NOT NULL THEN 1 ELSE 0 END) AS unanswered,
      SUM(CASE WHEN is_outbound = 1 THEN 1 ELSE 0 END) AS outbound,
      SUM(CASE WHEN answered_at IS NOT NULL AND ended_at IS NOT NULL THEN ended_at - answered_at ELSE 0 END) AS talk_ms,
      SUM(CASE WHEN answered_at IS NOT NULL AND ended_at IS NOT NULL THEN 1 ELSE 0 END) AS handled,
      MAX(subscriber_first_name) AS first_name,
      MAX(subscriber_last_name) AS last_name,
      MAX(subscriber_extension) AS extension
    FROM calls k
    WHERE ${inScopeSql(scope, 'k')} AND k.subscriber_id IS NOT NULL AND k.started_at >= ${from} AND k.started_at < ${to}
    GROUP BY subscriber_id`.execute(db);

const emptyRow = (subscriberID: string): AgentTimeRow => ({
  subscriberID,
  stateMs: {},
  answeredCalls: 0,
  unansweredCalls: 0,
  outboundPlaced: 0,
  talkMs: 0,
  handledCalls: 0,
});

const add = (ms: StateMs, state: string, value: number) => {
  if (value > 0) ms[state] = (ms[state] ?? 0) + value;
};

/**
 * Every agent with a state in the range (a row in it, or one in force at its start) or a call
 * that started in it, with their time per state and call figures; unordered.
 */
export const agentTime = async (db: HistoryDb, scope: ProviderScope, { from, to, now }: AgentTimeRequest): Promise<AgentTimeRow[]> => {
  const end = Math.max(from, Math.min(to, now));
  const [within, atStart, calls] = await Promise.all([
    statesWithin(db, scope, from, end),
    stateAtStart(db, scope, from),
    callsWithin(db, scope, from, to),
  ]);
  const rows = new Map<string, AgentTimeRow>();
  const rowOf = (id: string) => {
    const known = rows.get(id);
    if (known) return known;
    const row = emptyRow(id);
    rows.set(id, row);
    return row;
  };
  const firstAt = new Map<string, number>();
  const stateNames = new Map<string, Names>();
  for (const row of within.rows) {
    const agent = rowOf(row.subscriber_id);
    add(agent.stateMs, row.state, Number(row.ms));
    firstAt.set(row.subscriber_id, Math.min(firstAt.get(row.subscriber_id) ?? Infinity, Number(row.first_at)));
    const names = namesOf(row);
    if (Object.keys(names).length > 0) stateNames.set(row.subscriber_id, names);
  }
  // Until an agent's first row in the range, the row in force at its start holds; without one, the agent was unknown.
  const startCounted = new Set<string>();
  for (const row of atStart.rows) {
    const id = row.subscriber_id;
    // An agent the service stopped knowing before the range, and who did nothing in it, is not listed.
    if (row.state === 'unknown' && !firstAt.has(id)) continue;
    add(rowOf(id).stateMs, row.state, (firstAt.get(id) ?? end) - from);
    startCounted.add(id);
    if (!stateNames.has(id)) stateNames.set(id, namesOf(row));
  }
  for (const row of calls.rows) {
    const agent = rowOf(row.subscriber_id);
    agent.answeredCalls = Number(row.answered);
    agent.unansweredCalls = Number(row.unanswered);
    agent.outboundPlaced = Number(row.outbound);
    agent.talkMs = Number(row.talk_ms ?? 0);
    agent.handledCalls = Number(row.handled);
    if (!stateNames.has(row.subscriber_id)) stateNames.set(row.subscriber_id, namesOf(row));
  }
  for (const agent of rows.values()) {
    if (!startCounted.has(agent.subscriberID)) add(agent.stateMs, 'unknown', (firstAt.get(agent.subscriberID) ?? end) - from);
    Object.assign(agent, stateNames.get(agent.subscriberID));
  }
  return [...rows.values()];
};
