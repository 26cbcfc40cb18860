/** Sends a report's mail through the configured SMTP server with nodemailer, one connection per mail. */
import nodemailer from 'nodemailer';
import type { ReportsConfig } from './report-config.js';
import type { ReportMail } from './report-mail.js';

export interface OutgoingMail extends ReportMail {
  to: readonly string[];
  /** The same on every attempt at one period, so receivers can tell a second copy for what it is. */
  messageID: string;
  /** Names the schedule and the period in a header of their own, for filters and de-duplication. */
  reportID: string;
}

/** Sends one mail; resolves once the server accepted it (its final reply), rejects with what went wrong. */
export type SendMail = (mail: OutgoingMail, deadlineMs: number) => Promise<void>;

const TIMEOUTS = { connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 60_000 };

export const smtpSender =
  (smtp: ReportsConfig['smtp']): SendMail =>
  async (mail, deadlineMs) => {
    const transport = nodemailer.createTransport({
      host: smtp.host,
      port: smtp.port,
      secure: smtp.security === 'tls',
      requireTLS: smtp.security === 'starttls',
      ignoreTLS: smtp.security === 'none',
      ...(smtp.user && smtp.password ? { auth: { user: smtp.user, pass: smtp.password.reveal() } } : {}),
      ...TIMEOUTS,
    });
    let timer: NodeJS.Timeout | undefined;
    // A send past the deadline is cut off: by then the claim may lapse and another instance send the period.
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        transport.close();
        reject(new Error(`the SMTP server did not accept the mail within ${Math.round(deadlineMs / 1000)} s`));
      }, deadlineMs);
    });
    try {
      await Promise.race([
        transport.sendMail({
          from: smtp.from,
          to: [...mail.to],
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          attachments: mail.attachments,
          messageId: mail.messageID,
          headers: { 'X-Callboard-Report': mail.reportID },
        }),
        deadline,
      ]);
    } finally {
      clearTimeout(timer);
      transport.close();
    }
  };
