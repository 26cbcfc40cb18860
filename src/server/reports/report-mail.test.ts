import { describe, expect, it } from 'vitest';
import { emptySums, figuresOf } from '../history/service-level-figures.js';
import { reportMail, type ReportMailContent } from './report-mail.js';

const content: ReportMailContent = {
  accountName: 'Acme <Labs> & Co',
  applicationName: 'Support',
  providerName: 'PBX',
  scheduleID: 'weekly',
  at: 'weekly mon 07:00',
  period: { key: '2026-W48', firstDay: '2026-11-23', lastDay: '2026-11-29' },
  timeZone: 'UTC',
  summary: [
    { queueID: null, name: 'No queue', answerWithinSeconds: 20, serviceLevelTarget: undefined, figures: figuresOf(emptySums()) },
  ],
  intervals: { missing: 'the interval report is not available' },
};

describe('a report mail', () => {
  it('names the week in the subject, escapes what the config names in its HTML, and shows figures without calls as dashes', () => {
    const mail = reportMail(content);
    expect(mail.subject).toBe('Acme <Labs> & Co · Support · PBX: report "weekly" for 2026-W48 (2026-11-23 to 2026-11-29)');
    expect(mail.html).toContain('Acme &lt;Labs&gt; &amp; Co');
    expect(mail.html).not.toContain('<Labs>');
    expect(mail.html).toMatch(/<td[^>]*>No queue<\/td><td[^>]*>0<\/td><td[^>]*>0<\/td><td[^>]*>– in 20 s<\/td><td[^>]*>–<\/td>/);
    expect(mail.text).toContain('The interval report is not attached: the interval report is not available.');
    expect(mail.attachments).toEqual([]);
  });
});
