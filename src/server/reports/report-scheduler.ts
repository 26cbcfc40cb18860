/**
 * Sends each schedule's report once per period. Where the schedule's provider is synced (alone,
 * or as the cluster's leader of it), the latest due period is claimed in the sent-log, the mail
 * composed and sent, and the period recorded sent; a failed send is recorded with the time of its
 * next attempt (exponential backoff) and shown on /readyz and in the log until a send succeeds.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { ProviderScope } from '../../contract/paths.js';
import { queueParameterDefaults } from '../../contract/queues.js';
import type { Clock } from '../clock.js';
import type { HistoryStore } from '../history/history-store.js';
import { addSums, emptySums, figuresOf } from '../history/service-level-figures.js';
import type { QueueConfig } from '../queues/queue-config.js';
import type { ReportsConfig, ReportScheduleConfig } from './report-config.js';
import { reportMail, type QueueSummary, type ReportMail } from './report-mail.js';
import { latestDuePeriod, parseScheduleTime, type ReportPeriod, type ScheduleTime } from './report-schedule.js';
import type { ReportRange, ReportSource } from './report-source.js';
import type { SendMail } from './smtp-sender.js';
import { queueParametersMs, UNQUEUED_PARAMETERS_MS } from '../queues/queue-config.js';

/** What the scheduler needs to know of a configured provider (a ProviderRuntime is one). */
export interface ReportedProvider {
  account: { name: string };
  applicationName: string;
  config: { name: string };
  queueDirectory: { queues: readonly QueueConfig[] };
  /** Only the instance that writes the provider's journal (alone, or its cluster's leader) sends its reports. */
  writesJournal(): boolean;
}

export interface ReportSchedulerOptions {
  reports: ReportsConfig;
  timeZone: string;
  providers: (scope: ProviderScope) => ReportedProvider | undefined;
  history: Pick<HistoryStore, 'reportSends' | 'serviceLevelsByQueue'>;
  source: ReportSource;
  send: SendMail;
  clock: Clock;
  log: FastifyBaseLogger;
  /** Names this instance in the sent-log's claims. */
  instance: string;
}

/** A schedule whose latest send failed, as /readyz shows it. */
export interface ReportFailure {
  scheduleID: string;
  period: string;
  attempts: number;
  /**
   * What went wrong, in words safe for a public endpoint (/readyz): the SMTP server's reply code or
   * the kind of failure, never its text, which can name hosts and addresses. The log has the whole.
   */
  reason: string;
  nextAttemptAt: string;
}

/** nodemailer's error codes for a server that could not be reached or talked to. */
const UNREACHED = new Set(['ECONNECTION', 'ETIMEDOUT', 'ESOCKET', 'EDNS', 'ETLS', 'EPROTOCOL']);

const publicReason = (error: unknown): string => {
  const { code, responseCode } = (error ?? {}) as { code?: unknown; responseCode?: unknown };
  if (code === 'EAUTH') return 'the SMTP server refused the login';
  if (typeof responseCode === 'number') return `the SMTP server answered ${responseCode}`;
  if (typeof code === 'string' && UNREACHED.has(code)) return 'the SMTP server could not be reached';
  if (error instanceof Error && error.message.startsWith('the SMTP server did not accept the mail within')) return error.message;
  return 'the report could not be built or sent (see the log)';
};

const BACKOFF_FIRST_MS = 30_000;
const BACKOFF_MAX_MS = 3_600_000;
/** The wait before the attempt after attempt `n`: 30 s, 1 min, 2 min … at most an hour. */
const retryDelayMs = (attempt: number): number => Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS * 2 ** (attempt - 1));

/** How often the schedules are looked at: often enough that a lapsed claim is taken soon after it lapses. */
const tickMs = (claimMs: number) => Math.max(1000, Math.min(30_000, Math.floor(claimMs / 4)));

const ERROR_CHARS = 500;

interface Schedule {
  config: ReportScheduleConfig;
  time: ScheduleTime;
  scope: ProviderScope;
}

export class ReportScheduler {
  private readonly schedules: Schedule[];
  private readonly claimMs: number;
  /** The period each schedule last saw sent, so a tick asks the database nothing until the next one is due. */
  private readonly sent = new Map<string, string>();
  private readonly failed = new Map<string, ReportFailure>();
  /** This start of the instance: a claim of an earlier run of the same instance is not this one's. */
  private readonly owner: string;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(private readonly options: ReportSchedulerOptions) {
    this.claimMs = options.reports.claimSeconds * 1000;
    this.owner = `${options.instance} ${randomUUID().slice(0, 8)}`;
    this.schedules = options.reports.schedules.map((config) => {
      const time = parseScheduleTime(config.at);
      if (!time) throw new Error(`schedule "${config.id}": not a schedule time: ${config.at}`);
      return {
        config,
        time,
        scope: { accountID: config.account, applicationID: config.application, providerID: config.provider },
      };
    });
  }

  start(): void {
    const tick = () => {
      this.running ??= this.runDue().finally(() => {
        this.running = undefined;
      });
    };
    this.timer = setInterval(tick, tickMs(this.claimMs));
    tick();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /** The schedules whose latest send failed, until one succeeds. */
  failures(): ReportFailure[] {
    return [...this.failed.values()];
  }

  /** Sends every schedule's due period this instance should send and no one has sent yet. */
  async runDue(): Promise<void> {
    for (const schedule of this.schedules)
      await this.runSchedule(schedule).catch((error: unknown) =>
        this.options.log.error(
          { schedule: schedule.config.id, err: { message: (error as Error).message } },
          'scheduled report: the sent-log could not be read or written',
        ),
      );
  }

  private async runSchedule(schedule: Schedule): Promise<void> {
    const { clock, history, log, timeZone } = this.options;
    const provider = this.options.providers(schedule.scope);
    if (!provider || !provider.writesJournal()) {
      // The schedule is the leader's now: its failures are that instance's to tell.
      this.failed.delete(schedule.config.id);
      return;
    }
    const now = clock.now();
    const period = latestDuePeriod(timeZone, schedule.time, now);
    if (this.sent.get(schedule.config.id) === period.key) return;
    // A failed send waits out its backoff here, without asking the sent-log at every tick.
    const failed = this.failed.get(schedule.config.id);
    if (failed?.period === period.key && now < Date.parse(failed.nextAttemptAt)) return;
    const key = { scheduleID: schedule.config.id, period: period.key };
    const claim = await history.reportSends.claim({
      ...key,
      owner: this.owner,
      now,
      lapsedBefore: now - this.claimMs,
      messageID: this.messageID(key),
    });
    if (!claim) {
      if ((await history.reportSends.read(key))?.status === 'sent') this.settle(schedule, period);
      return;
    }
    const where = { schedule: key.scheduleID, period: key.period, attempt: claim.attempt };
    try {
      const mail = await this.compose(schedule, provider, period);
      await this.options.send(
        { ...mail, to: schedule.config.recipients, messageID: claim.messageID, reportID: `${key.scheduleID}/${key.period}` },
        this.claimMs / 2,
      );
    } catch (error) {
      const message = ((error as Error).message || String(error)).slice(0, ERROR_CHARS);
      const nextAttemptAt = clock.now() + retryDelayMs(claim.attempt);
      await history.reportSends.markFailed(key, this.owner, message, nextAttemptAt);
      this.failed.set(key.scheduleID, {
        ...key,
        attempts: claim.attempt,
        reason: publicReason(error),
        nextAttemptAt: new Date(nextAttemptAt).toISOString(),
      });
      log.error(
        { ...where, nextAttemptAt: new Date(nextAttemptAt).toISOString(), err: { message } },
        'scheduled report: the send failed; it is tried again then',
      );
      return;
    }
    if (await history.reportSends.markSent(key, this.owner, clock.now())) log.info(where, 'scheduled report sent');
    // Sent, but by then the claim had lapsed and another instance may have sent the period too: the Message-ID is the same.
    else log.warn(where, 'scheduled report sent after its claim lapsed: it may arrive twice, with one Message-ID');
    this.settle(schedule, period);
  }

  private settle(schedule: Schedule, period: ReportPeriod): void {
    this.sent.set(schedule.config.id, period.key);
    this.failed.delete(schedule.config.id);
  }

  private messageID(key: { scheduleID: string; period: string }): string {
    const from = this.options.reports.smtp.from;
    const domain = (/<([^>]*)>\s*$/.exec(from)?.[1] ?? from).split('@')[1] ?? 'callboard';
    return `<report.${key.scheduleID}.${key.period}.${randomUUID()}@${domain}>`;
  }

  private async compose(schedule: Schedule, provider: ReportedProvider, period: ReportPeriod): Promise<ReportMail> {
    const { config, scope } = schedule;
    const range: ReportRange = { from: period.from, to: period.to, queues: config.queues };
    const wants = (kind: ReportScheduleConfig['reports'][number]) => config.reports.includes(kind);
    const [summary, intervals, agents] = await Promise.all([
      wants('summary') ? this.summary(scope, provider, range) : undefined,
      wants('intervals') ? this.options.source.intervals(scope, range, config.intervalMinutes) : undefined,
      wants('agents') ? this.options.source.agents(scope, range) : undefined,
    ]);
    const day = new Intl.DateTimeFormat('en-CA', {
      timeZone: this.options.timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    return reportMail({
      accountName: provider.account.name,
      applicationName: provider.applicationName,
      providerName: provider.config.name,
      scheduleID: config.id,
      at: config.at,
      period: { key: period.key, firstDay: day.format(period.from), lastDay: day.format(period.to - 1) },
      timeZone: this.options.timeZone,
      ...(summary ? { summary } : {}),
      ...(intervals ? { intervals } : {}),
      ...(agents ? { agents } : {}),
    });
  }

  /** Each queue's figures over the period, every call with its queue's own parameters. */
  private async summary(scope: ProviderScope, provider: ReportedProvider, range: ReportRange): Promise<QueueSummary[]> {
    const configured = provider.queueDirectory.queues;
    const rows = await this.options.history.serviceLevelsByQueue(scope, {
      from: range.from,
      to: range.to,
      bucketMs: range.to - range.from,
      queues: configured.map(queueParametersMs),
      ...UNQUEUED_PARAMETERS_MS,
    });
    const sumsOf = (queueID: string | null) => rows.filter((row) => row.queueID === queueID).reduce(addSums, emptySums());
    const queues: QueueSummary[] = configured
      .filter((q) => range.queues === undefined || range.queues.includes(q.id))
      .map((q) => ({
        queueID: q.id,
        name: q.name,
        answerWithinSeconds: q.answerWithinSeconds,
        serviceLevelTarget: q.serviceLevelTarget,
        figures: figuresOf(sumsOf(q.id)),
      }));
    const unqueued = figuresOf(sumsOf(null));
    if (range.queues === undefined && (unqueued.offered > 0 || configured.length === 0))
      queues.push({
        queueID: null,
        name: 'No queue',
        answerWithinSeconds: queueParameterDefaults.answerWithinSeconds,
        serviceLevelTarget: undefined,
        figures: unqueued,
      });
    return queues;
  }
}

