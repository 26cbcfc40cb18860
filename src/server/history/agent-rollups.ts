/**
 * The agents report over long ranges: each agent's sums per closed period (a UTC hour, or a day of
 * the service's time zone summed from its hours), so a report reads the raw rows only at its
 * ragged edges. A rolled period's sums are `agentTime` over it: the definitions live there alone.
 */
import { sql, type SqlBool } from 'kysely';
import type { ProviderScope } from '../../contract/paths.js';
import { agentTime, type AgentTimeRequest, type AgentTimeRow } from './agent-time-query.js';
import type { AgentRollupsTable, HistoryDb } from './history-tables.js';
import { chunks, inScope } from './journal-write.js';

export type RollupSpan = 'hour' | 'day';

/** A period [start, end) whose sums are rolled up, or are to be. */
export interface RollupPeriod {
  span: RollupSpan;
  start: number;
  end: number;
}

/** The states of the board and the columns that hold their time. */
const STATE_COLUMNS = {
  unknown: 'unknown_ms',
  offline: 'offline_ms',
  inactive: 'inactive_ms',
  available: 'available_ms',
  ringing: 'ringing_ms',
  'on-call': 'on_call_ms',
} as const;

const KNOWN_STATES = (Object.keys(STATE_COLUMNS) as (keyof typeof STATE_COLUMNS)[]).filter((state) => state !== 'unknown');

type SumColumn = (typeof STATE_COLUMNS)[keyof typeof STATE_COLUMNS] | 'answered' | 'unanswered' | 'outbound' | 'talk_ms' | 'handled';

const SUM_COLUMNS: readonly SumColumn[] = [...Object.values(STATE_COLUMNS), 'answered', 'unanswered', 'outbound', 'talk_ms', 'handled'];

/** One piece of a range: the agents' rows over a stretch that begins at `start`. */
interface Piece {
  start: number;
  rows: readonly AgentTimeRow[];
}

const hasNames = (row: AgentTimeRow) => row.firstName !== undefined || row.lastName !== undefined || row.extension !== undefined;

/**
 * Sums pieces that tile [from, to) into one row per agent: an agent absent from a piece was
 * unknown there, so unknown is what the other states leave of the window and the six add up to
 * it; the names are those of the latest piece that has them.
 */
const mergePieces = (pieces: readonly Piece[], from: number, to: number): AgentTimeRow[] => {
  const merged = new Map<string, AgentTimeRow & { namedAt: number }>();
  for (const piece of pieces)
    for (const row of piece.rows) {
      let agent = merged.get(row.subscriberID);
      if (!agent) {
        agent = { subscriberID: row.subscriberID, stateMs: {}, answeredCalls: 0, unansweredCalls: 0, outboundPlaced: 0, talkMs: 0, handledCalls: 0, namedAt: -Infinity };
        merged.set(row.subscriberID, agent);
      }
      for (const state of KNOWN_STATES) {
        const ms = row.stateMs[state] ?? 0;
        if (ms > 0) agent.stateMs[state] = (agent.stateMs[state] ?? 0) + ms;
      }
      agent.answeredCalls += row.answeredCalls;
      agent.unansweredCalls += row.unansweredCalls;
      agent.outboundPlaced += row.outboundPlaced;
      agent.talkMs += row.talkMs;
      agent.handledCalls += row.handledCalls;
      if (hasNames(row) && piece.start >= agent.namedAt) {
        agent.namedAt = piece.start;
        agent.firstName = row.firstName;
        agent.lastName = row.lastName;
        agent.extension = row.extension;
      }
    }
  return [...merged.values()].map(({ namedAt: _, firstName, lastName, extension, ...agent }) => {
    const known = KNOWN_STATES.reduce((sum, state) => sum + (agent.stateMs[state] ?? 0), 0);
    const unknown = to - from - known;
    return {
      ...agent,
      stateMs: unknown > 0 ? { ...agent.stateMs, unknown } : agent.stateMs,
      ...(firstName === undefined ? {} : { firstName }),
      ...(lastName === undefined ? {} : { lastName }),
      ...(extension === undefined ? {} : { extension }),
    };
  });
};

type RollupRow = Pick<AgentRollupsTable, SumColumn | 'subscriber_id' | 'first_name' | 'last_name' | 'extension'>;

const toRollupRow = (row: AgentTimeRow): RollupRow => ({
  subscriber_id: row.subscriberID,
  ...(Object.fromEntries(Object.entries(STATE_COLUMNS).map(([state, column]) => [column, row.stateMs[state] ?? 0])) as Record<
    (typeof STATE_COLUMNS)[keyof typeof STATE_COLUMNS],
    number
  >),
  answered: row.answeredCalls,
  unanswered: row.unansweredCalls,
  outbound: row.outboundPlaced,
  talk_ms: row.talkMs,
  handled: row.handledCalls,
  first_name: row.firstName ?? null,
  last_name: row.lastName ?? null,
  extension: row.extension ?? null,
});

const fromRollupRow = (row: { [K in keyof RollupRow]: RollupRow[K] | string }): AgentTimeRow => {
  const stateMs: Record<string, number> = {};
  for (const [state, column] of Object.entries(STATE_COLUMNS)) {
    const ms = Number(row[column]);
    if (ms > 0) stateMs[state] = ms;
  }
  return {
    subscriberID: row.subscriber_id as string,
    stateMs,
    answeredCalls: Number(row.answered),
    unansweredCalls: Number(row.unanswered),
    outboundPlaced: Number(row.outbound),
    talkMs: Number(row.talk_ms),
    handledCalls: Number(row.handled),
    ...(row.first_name === null ? {} : { firstName: row.first_name as string }),
    ...(row.last_name === null ? {} : { lastName: row.last_name as string }),
    ...(row.extension === null ? {} : { extension: row.extension as string }),
  };
};

/** The periods rolled within [from, to), by start, a day before the hour that starts it. */
export const rolledPeriods = async (db: HistoryDb, scope: ProviderScope, from: number, to: number): Promise<RollupPeriod[]> => {
  const rows = await db
    .selectFrom('agent_rollup_periods')
    .select(['span', 'period_start', 'period_end'])
    .where((eb) => eb.and(inScope(scope)))
    .where('period_start', '>=', from)
    .where('period_end', '<=', to)
    .orderBy('period_start')
    .orderBy('span')
    .execute();
  return rows.map((row) => ({ span: row.span as RollupSpan, start: Number(row.period_start), end: Number(row.period_end) }));
};

/** Replaces a period's rows with `rows` and marks it rolled, in one transaction. */
export const writeRollup = (db: HistoryDb, scope: ProviderScope, period: RollupPeriod, rows: readonly AgentTimeRow[], rolledAt: number): Promise<void> =>
  db.transaction().execute(async (trx) => {
    await trx
      .deleteFrom('agent_rollups')
      .where((eb) => eb.and(inScope(scope)))
      .where('span', '=', period.span)
      .where('period_start', '=', period.start)
      .execute();
    for (const part of chunks(rows))
      await trx
        .insertInto('agent_rollups')
        .values(part.map((row) => ({ ...inScope(scope), span: period.span, period_start: period.start, ...toRollupRow(row) })))
        .execute();
    await trx
      .insertInto('agent_rollup_periods')
      .values({ ...inScope(scope), span: period.span, period_start: period.start, period_end: period.end, rolled_at: rolledAt })
      .onConflict((oc) => oc.columns(['account_id', 'application_id', 'provider_id', 'span', 'period_start']).doUpdateSet({ period_end: period.end, rolled_at: rolledAt }))
      .execute();
  });

/** A day's rows from its rolled hours (the caller checks that all are rolled). */
export const dayFromHours = async (db: HistoryDb, scope: ProviderScope, day: RollupPeriod): Promise<AgentTimeRow[]> => {
  const rows = await db
    .selectFrom('agent_rollups')
    .selectAll()
    .where((eb) => eb.and(inScope(scope)))
    .where('span', '=', 'hour')
    .where('period_start', '>=', day.start)
    .where('period_start', '<', day.end)
    .execute();
  const byHour = new Map<number, AgentTimeRow[]>();
  for (const row of rows) {
    const start = Number(row.period_start);
    byHour.set(start, [...(byHour.get(start) ?? []), fromRollupRow(row)]);
  }
  return mergePieces(
    [...byHour].map(([start, hourRows]) => ({ start, rows: hourRows })),
    day.start,
    day.end,
  );
};

/** Un-marks the periods that end after `at`: a write dated at `at` changed what they sum. */
export const unrollFrom = async (db: HistoryDb, scope: ProviderScope, at: number): Promise<void> => {
  await db
    .deleteFrom('agent_rollup_periods')
    .where((eb) => eb.and(inScope(scope)))
    .where('period_end', '>', at)
    .execute();
};

/** The earliest agent state or call start of the scope, if any. */
export const oldestAgentActivity = async (db: HistoryDb, scope: ProviderScope): Promise<number | undefined> => {
  const [state, call] = await Promise.all([
    db.selectFrom('agent_states').select((eb) => eb.fn.min('at').as('at')).where((eb) => eb.and(inScope(scope))).executeTakeFirst(),
    db.selectFrom('calls').select((eb) => eb.fn.min('started_at').as('at')).where((eb) => eb.and(inScope(scope))).executeTakeFirst(),
  ]);
  const known = [state?.at, call?.at].filter((at) => at !== null && at !== undefined).map(Number);
  return known.length === 0 ? undefined : Math.min(...known);
};

/** Rollups of periods that began before `cutoff`, pruned with the raw rows they were summed from. */
export const pruneRollups = async (db: HistoryDb, cutoff: number): Promise<void> => {
  await db.deleteFrom('agent_rollups').where('period_start', '<', cutoff).execute();
  await db.deleteFrom('agent_rollup_periods').where('period_start', '<', cutoff).execute();
};

/** The rolled periods a read of [from, end) takes, and the raw stretches between them (adjacent ones as one). */
const planRead = (rolled: readonly RollupPeriod[], from: number, end: number): { rolled: RollupPeriod[]; raw: [number, number][] } => {
  const plan: { rolled: RollupPeriod[]; raw: [number, number][] } = { rolled: [], raw: [] };
  let at = from;
  for (const period of rolled) {
    if (period.start < at || period.end > end) continue;
    if (period.start > at) plan.raw.push([at, period.start]);
    plan.rolled.push(period);
    at = period.end;
  }
  if (at < end) plan.raw.push([at, end]);
  return plan;
};

const periodsCondition = (periods: readonly RollupPeriod[]) =>
  sql<SqlBool>`(${sql.join(
    (['day', 'hour'] as const)
      .map((span) => [span, periods.filter((period) => period.span === span).map((period) => period.start)] as const)
      .filter(([, starts]) => starts.length > 0)
      .map(([span, starts]) => sql`(span = ${span} AND period_start IN (${sql.join(starts)}))`),
    sql` OR `,
  )})`;

/** The rolled periods' sums per agent, summed in the database, with the names of each agent's latest named row. */
const rolledSums = async (db: HistoryDb, scope: ProviderScope, periods: readonly RollupPeriod[]): Promise<Piece[]> => {
  if (periods.length === 0) return [];
  const where = sql<SqlBool>`account_id = ${scope.accountID} AND application_id = ${scope.applicationID} AND provider_id = ${scope.providerID} AND ${periodsCondition(periods)}`;
  const [sums, names] = await Promise.all([
    sql<Record<SumColumn | 'subscriber_id', string | number>>`
      SELECT subscriber_id, ${sql.join(SUM_COLUMNS.map((column) => sql`SUM(${sql.ref(column)}) AS ${sql.ref(column)}`))}
      FROM agent_rollups WHERE ${where} GROUP BY subscriber_id`.execute(db),
    sql<{ subscriber_id: string; period_start: number | string; first_name: string | null; last_name: string | null; extension: string | null }>`
      SELECT subscriber_id, period_start, first_name, last_name, extension FROM (
        SELECT subscriber_id, period_start, first_name, last_name, extension,
          ROW_NUMBER() OVER (PARTITION BY subscriber_id ORDER BY period_start DESC) AS latest
        FROM agent_rollups
        WHERE ${where} AND (first_name IS NOT NULL OR last_name IS NOT NULL OR extension IS NOT NULL)
      ) ranked WHERE latest = 1`.execute(db),
  ]);
  const namedAt = new Map(names.rows.map((row) => [row.subscriber_id, row]));
  // Each agent's sums stand as one piece dated at their latest named period, so later raw pieces' names win.
  return sums.rows.map((sum) => {
    const named = namedAt.get(sum.subscriber_id as string);
    const row = fromRollupRow({ ...sum, first_name: named?.first_name ?? null, last_name: named?.last_name ?? null, extension: named?.extension ?? null } as never);
    const start = named === undefined ? -Infinity : Number(named.period_start);
    return { start, rows: [row] };
  });
};

/**
 * `agentTime` over [from, min(to, now)) read from the rolled periods where there are some, and
 * from the raw rows elsewhere; the same answer.
 */
export const agentTimeRolled = async (db: HistoryDb, scope: ProviderScope, { from, to, now }: AgentTimeRequest): Promise<AgentTimeRow[]> => {
  const end = Math.max(from, Math.min(to, now));
  const plan = planRead(await rolledPeriods(db, scope, from, end), from, end);
  if (plan.rolled.length === 0) return agentTime(db, scope, { from, to, now });
  const [rolled, ...raw] = await Promise.all([
    rolledSums(db, scope, plan.rolled),
    ...plan.raw.map(async ([start, stop]): Promise<Piece> => ({
      start,
      // Calls that start past now (a clock ahead of ours) count as the raw read counts them.
      rows: await agentTime(db, scope, { from: start, to: stop === end ? to : stop, now }),
    })),
  ]);
  return mergePieces([...rolled, ...raw], from, end);
};
