/**
 * A scheduled report as a mail: the subject, a summary of the period's figures per queue (HTML with
 * inline styles only, as mail clients want it, and the same as plain text), and the interval and
 * agents reports as CSV attachments.
 */
import { AGENT_TIME_COLUMNS, INTERVAL_FIGURE_COLUMNS, type AgentTime, type IntervalReport, type AgentReport } from '../../contract/reports.js';
import type { ServiceLevelFigures } from '../../contract/service-levels.js';
import { toCsv } from './csv.js';

/** One queue's line of the summary. */
export interface QueueSummary {
  /** null: the inbound calls in no queue. */
  queueID: string | null;
  name: string;
  answerWithinSeconds: number;
  /** The queue's service-level target; undefined for the calls in no queue. */
  serviceLevelTarget: number | undefined;
  figures: ServiceLevelFigures;
}

export interface ReportMailContent {
  accountName: string;
  applicationName: string;
  providerName: string;
  scheduleID: string;
  /** The schedule as written: "daily 07:00". */
  at: string;
  /** The period's key ("2026-11-27", "2026-W48") and its bounds in the time zone, as calendar dates. */
  period: { key: string; firstDay: string; lastDay: string };
  timeZone: string;
  summary?: QueueSummary[];
  intervals?: IntervalReport;
  agents?: AgentReport;
}

export interface ReportMail {
  subject: string;
  text: string;
  html: string;
  attachments: { filename: string; content: string; contentType: string }[];
}

export const intervalsCsv = (report: IntervalReport): string => {
  const names = new Map(report.queues.map((queue) => [queue.queueID, queue.name]));
  const rows = report.rows.map((row) => ({ ...row, queueName: names.get(row.queueID) ?? row.queueID ?? '' }));
  const columns = ['start', 'queueID', 'queueName', ...INTERVAL_FIGURE_COLUMNS] as const;
  return toCsv<(typeof rows)[number]>(columns, rows, (row, column) => row[column] as string | number | null);
};

export const agentsCsv = (report: AgentReport): string =>
  toCsv<AgentTime>(AGENT_TIME_COLUMNS, report.agents, (agent, column) => agent[column]);

const percent = (share: number | null | undefined) =>
  share === null || share === undefined ? '–' : `${(share * 100).toFixed(1)} %`;
const seconds = (value: number | null) => (value === null ? '–' : `${value.toFixed(1)} s`);

/** The summary's columns: a heading, and the cell of one queue. */
const SUMMARY_COLUMNS: { heading: string; cell: (queue: QueueSummary) => string }[] = [
  { heading: 'Queue', cell: (q) => q.name },
  { heading: 'Offered', cell: (q) => String(q.figures.offered) },
  { heading: 'Answered', cell: (q) => String(q.figures.answered) },
  {
    heading: 'Service level',
    cell: (q) => `${percent(q.figures.serviceLevel)} in ${q.answerWithinSeconds} s`,
  },
  {
    heading: 'Target',
    cell: (q) =>
      q.serviceLevelTarget === undefined
        ? '–'
        : `${percent(q.serviceLevelTarget)}${q.figures.serviceLevel === null ? '' : q.figures.serviceLevel >= q.serviceLevelTarget ? ' (met)' : ' (missed)'}`,
  },
  { heading: 'Abandoned', cell: (q) => percent(q.figures.abandonRate) },
  { heading: 'Average answer', cell: (q) => seconds(q.figures.averageAnswerSeconds) },
  { heading: 'Longest answer', cell: (q) => seconds(q.figures.longestAnswerSeconds) },
];

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

const periodText = (content: ReportMailContent) =>
  content.period.firstDay === content.period.lastDay
    ? content.period.firstDay
    : `${content.period.key} (${content.period.firstDay} to ${content.period.lastDay})`;

const CELL = 'padding:6px 10px;border-bottom:1px solid #d0d7de;text-align:right;white-space:nowrap;';
const FIRST_CELL = 'padding:6px 10px;border-bottom:1px solid #d0d7de;text-align:left;';

const summaryHtml = (queues: QueueSummary[]) => {
  const head = SUMMARY_COLUMNS.map(
    (c, i) => `<th scope="col" style="${i === 0 ? FIRST_CELL : CELL}background:#f6f8fa;">${escapeHtml(c.heading)}</th>`,
  ).join('');
  const body = queues
    .map(
      (queue) =>
        `<tr>${SUMMARY_COLUMNS.map((c, i) => `<td style="${i === 0 ? FIRST_CELL : CELL}">${escapeHtml(c.cell(queue))}</td>`).join('')}</tr>`,
    )
    .join('\n');
  return `<table role="table" cellspacing="0" cellpadding="0" style="border-collapse:collapse;font-size:14px;">\n<thead><tr>${head}</tr></thead>\n<tbody>\n${body}\n</tbody>\n</table>`;
};

/** The summary as aligned columns of plain text. */
const summaryText = (queues: QueueSummary[]) => {
  const table = [SUMMARY_COLUMNS.map((c) => c.heading), ...queues.map((q) => SUMMARY_COLUMNS.map((c) => c.cell(q)))];
  const widths = SUMMARY_COLUMNS.map((_, i) => Math.max(...table.map((row) => row[i]?.length ?? 0)));
  return table
    .map((row) =>
      row
        .map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
};

export const reportMail = (content: ReportMailContent): ReportMail => {
  const where = `${content.accountName} · ${content.applicationName} · ${content.providerName}`;
  const subject = `${where}: report "${content.scheduleID}" for ${periodText(content)}`;
  const about = `Report "${content.scheduleID}" (${content.at}, ${content.timeZone}) for ${periodText(content)}.`;
  const attachments = [
    ...(content.intervals
      ? [
          {
            filename: `${content.scheduleID}-${content.period.key}-intervals.csv`,
            content: intervalsCsv(content.intervals),
            contentType: 'text/csv; charset=utf-8',
          },
        ]
      : []),
    ...(content.agents
      ? [
          {
            filename: `${content.scheduleID}-${content.period.key}-agents.csv`,
            content: agentsCsv(content.agents),
            contentType: 'text/csv; charset=utf-8',
          },
        ]
      : []),
  ];
  const text = [
    where,
    about,
    '',
    ...(content.summary ? [summaryText(content.summary), ''] : []),
    ...(attachments.length ? [`Attached: ${attachments.map((a) => a.filename).join(', ')}.`] : []),
    '',
  ].join('\n');
  const html = [
    '<!doctype html>',
    `<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>`,
    '<body style="margin:0;padding:16px;font-family:Arial,Helvetica,sans-serif;color:#1f2328;background:#ffffff;">',
    `<h1 style="font-size:18px;margin:0 0 4px 0;">${escapeHtml(where)}</h1>`,
    `<p style="margin:0 0 16px 0;font-size:14px;">${escapeHtml(about)}</p>`,
    ...(content.summary ? [summaryHtml(content.summary)] : []),
    ...(attachments.length
      ? [
          `<p style="margin:16px 0 0 0;font-size:13px;color:#59636e;">Attached: ${escapeHtml(attachments.map((a) => a.filename).join(', '))}.</p>`,
        ]
      : []),
    '</body></html>',
    '',
  ].join('\n');
  return { subject, text, html, attachments };
};
