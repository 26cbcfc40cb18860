/**
 * The config's `reports`: the SMTP server scheduled reports are sent through, and the schedules
 * (when, to whom, which reports of which provider's queues). Absent, no report is sent.
 */
import { z } from 'zod';
import { QUEUE_ID_PATTERN, QUEUE_ID_RULE } from '../../contract/queues.js';
import { ID_PATTERN, ID_RULE, idSchema } from '../settings/field-rules.js';
import { secretSchema } from '../settings/secret.js';
import { parseScheduleTime, SCHEDULE_RULE } from './report-schedule.js';

const REPORT_KINDS = ['summary', 'intervals', 'agents'] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];

/** An address as a mail server takes it in an envelope: one "@", no spaces, no angle brackets. */
const EMAIL = /^[^\s@<>()",;:]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*$/;
const emailSchema = z.string().regex(EMAIL, 'must be an email address such as ops@example.com');

const smtpSchema = z
  .strictObject({
    host: z.string().min(1, 'must name the SMTP server (a host name or address)'),
    port: z.number().int().min(1).max(65_535).default(587),
    /**
     * "starttls" (the default): plain connection upgraded to TLS, refused without it; "tls": TLS
     * from the first byte (port 465); "none": no TLS at all, for a relay on this machine only.
     */
    security: z.enum(['starttls', 'tls', 'none'], { error: 'must be "starttls", "tls" or "none"' }).default('starttls'),
    user: z.string().min(1).optional(),
    password: secretSchema.optional(),
    /** The sender: an address, with a name before it if wanted ("Callboard <reports@example.com>"). */
    from: z.string().refine((from) => EMAIL.test(/<([^>]*)>\s*$/.exec(from)?.[1] ?? from), {
      error: 'must be an email address, or a name and one in angle brackets: "Callboard <reports@example.com>"',
    }),
  })
  .refine((smtp) => (smtp.user === undefined) === (smtp.password === undefined), {
    error: 'give both "user" and "password" to sign in to the SMTP server, or neither',
  });

const scheduleSchema = z.strictObject({
  /** Names the schedule in the sent-log, the logs and the subject: never change it once reports went out, or a period is sent again. */
  id: z.string().regex(ID_PATTERN, `must be ${ID_RULE}`),
  account: idSchema,
  application: idSchema,
  provider: idSchema,
  /** "daily 07:00" or "weekly mon 07:00", in the service's `timeZone`. */
  at: z.string().refine((text) => parseScheduleTime(text) !== undefined, { error: SCHEDULE_RULE }),
  recipients: z.array(emailSchema).min(1, 'is empty: list who receives the report'),
  reports: z
    .array(z.enum(REPORT_KINDS, { error: `must be one of ${REPORT_KINDS.map((kind) => `"${kind}"`).join(', ')}` }))
    .min(1, 'is empty: list the reports to send, of "summary", "intervals", "agents"')
    .default(['summary', 'intervals', 'agents']),
  /** Only these of the provider's queues; all of them (and the calls in none) by default. */
  queues: z
    .array(z.string().regex(QUEUE_ID_PATTERN, `must be ${QUEUE_ID_RULE}`))
    .min(1)
    .optional(),
  /** The interval report's intervals. */
  intervalMinutes: z.union([z.literal(15), z.literal(30), z.literal(60)], { error: 'must be 15, 30 or 60' }).default(60),
});
export type ReportScheduleConfig = z.infer<typeof scheduleSchema>;

export const reportsConfigSchema = z.strictObject({
  smtp: smtpSchema,
  schedules: z.array(scheduleSchema).min(1, 'is empty: add a schedule, or leave "reports" out to send none'),
  /**
   * How long an instance's claim on a period holds while it sends: past it another instance may
   * send that period (the claimer died). Longer than any send takes.
   */
  claimSeconds: z.number().int().min(5).max(3600).default(300),
});
export type ReportsConfig = z.infer<typeof reportsConfigSchema>;

/** What the check against the rest of the config needs to know of it. */
interface ConfiguredAccounts {
  accounts: readonly {
    id: string;
    applications: readonly { id: string; providers: readonly { id: string; queues: readonly { id: string }[] }[] }[];
  }[];
}

/** Each schedule names a configured provider and its queues, and no two share an ID. */
export const checkReportSchedules = (reports: ReportsConfig, config: ConfiguredAccounts, ctx: z.RefinementCtx): void => {
  const issue = (path: (string | number)[], message: string) =>
    ctx.addIssue({ code: 'custom', path: ['reports', 'schedules', ...path], message });
  const ids = new Set<string>();
  reports.schedules.forEach((schedule, i) => {
    if (ids.has(schedule.id)) issue([i, 'id'], `duplicate schedule id "${schedule.id}"`);
    ids.add(schedule.id);
    const account = config.accounts.find((a) => a.id === schedule.account);
    if (!account) return issue([i, 'account'], `no account "${schedule.account}"`);
    const application = account.applications.find((a) => a.id === schedule.application);
    if (!application) return issue([i, 'application'], `no application "${schedule.application}" in account "${account.id}"`);
    const provider = application.providers.find((p) => p.id === schedule.provider);
    if (!provider) return issue([i, 'provider'], `no provider "${schedule.provider}" in application "${application.id}"`);
    schedule.queues?.forEach((queue, q) => {
      if (!provider.queues.some((configured) => configured.id === queue))
        issue([i, 'queues', q], `no queue "${queue}" in provider "${provider.id}"`);
    });
  });
};
