/** CSV of the reports' tables: every figure under its API name, as served; timestamps in ISO 8601 UTC, then in the displayed zone. */
import { AGENT_TIME_COLUMNS, INTERVAL_FIGURE_COLUMNS, type AgentTime, type IntervalRow, type ReportQueue } from '../../../../contract/reports.js';
import type { AnswerTimes } from '../../../../contract/service-levels.js';
import { csvText } from '../../../../contract/csv.js';
import { toZonedInput } from '../../../lib/zoned-time.js';

const cell = (value: number | string | null): string => (value === null ? '' : String(value));

const ANSWER_TIME_COLUMNS = [
  'within10',
  'within20',
  'within30',
  'within60',
  'within120',
  'later',
] as const satisfies readonly (keyof AnswerTimes)[];

/** The zone's wall time, "2026-11-22 14:00", for a reader whose spreadsheet does not convert ISO instants. */
export const zonedCell = (iso: string, zone: string): string => toZonedInput(Date.parse(iso), zone).replace('T', ' ');

/** One line an interval and queue, as the service served them. */
export const intervalsToCsv = (rows: readonly IntervalRow[], queues: readonly ReportQueue[], zone: string): string => {
  const names = new Map(queues.map((queue) => [queue.queueID, queue.name]));
  return csvText([
    [
      'start',
      `start (${zone})`,
      'queueID',
      'queue',
      ...INTERVAL_FIGURE_COLUMNS,
      ...ANSWER_TIME_COLUMNS.map((band) => `answerTimes.${band}`),
    ],
    ...rows.map((row) => [
      row.start,
      zonedCell(row.start, zone),
      cell(row.queueID),
      names.get(row.queueID) ?? cell(row.queueID),
      ...INTERVAL_FIGURE_COLUMNS.map((column) => cell(row[column])),
      ...ANSWER_TIME_COLUMNS.map((band) => cell(row.answerTimes[band])),
    ]),
  ]);
};



/** One line an agent, every field as served (the compiler says when one is missing). */
export const agentsToCsv = (agents: readonly AgentTime[]): string =>
  csvText([AGENT_TIME_COLUMNS, ...agents.map((agent) => AGENT_TIME_COLUMNS.map((column) => cell(agent[column])))]);

/** The staffing table's lines: each interval of each queue with its offered calls, agents needed and staffed, as served. */
export const staffingToCsv = (rows: readonly IntervalRow[], queues: readonly ReportQueue[], zone: string): string => {
  const names = new Map(queues.map((queue) => [queue.queueID, queue.name]));
  return csvText([
    [
      'start',
      `start (${zone})`,
      'queueID',
      'queue',
      'offered',
      'agentsNeeded',
      'agentsStaffed',
      'peakConcurrentCalls',
      'longestWaitSeconds',
    ],
    ...rows.map((row) => [
      row.start,
      zonedCell(row.start, zone),
      cell(row.queueID),
      names.get(row.queueID) ?? cell(row.queueID),
      cell(row.offered),
      cell(row.agentsNeeded),
      cell(row.agentsStaffed),
      cell(row.peakConcurrentCalls),
      cell(row.longestWaitSeconds),
    ]),
  ]);
};
