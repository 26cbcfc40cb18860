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
};

describe('a report mail', () => {
  it('names the week in the subject, escapes what the config names in its HTML, and shows figures without calls as dashes', () => {
    const mail = reportMail(content);
    expect(mail.subject).toBe('Acme <Labs> & Co · Support · PBX: report "weekly" for 2026-W48 (2026-11-23 to 2026-11-29)');
    expect(mail.html).toContain('Acme &lt;Labs&gt; &amp; Co');
    expect(mail.html).not.toContain('<Labs>');
    expect(mail.html).toMatch(/<td[^>]*>No queue<\/td><td[^>]*>0<\/td><td[^>]*>0<\/td><td[^>]*>– in 20 s<\/td><td[^>]*>–<\/td>/);
    expect(mail.attachments).toEqual([]);
  });

  it('writes the attachments as the dashboard writes its files: a name a spreadsheet would run as a formula is defused', () => {
    const agent = {
      subscriberID: 'agt-1',
      firstName: '=HYPERLINK("x")',
      lastName: 'Smith, Jr.',
      extension: '101',
      unknownSeconds: 0,
      offlineSeconds: 0,
      inactiveSeconds: 0,
      availableSeconds: 60,
      ringingSeconds: 0,
      onCallSeconds: 0,
      loggedInSeconds: 60,
      answeredCalls: 0,
      unansweredCalls: 0,
      outboundPlaced: 0,
      talkSeconds: 0,
      averageHandleSeconds: null,
      occupancy: 0,
    };
    const mail = reportMail({
      ...content,
      agents: { fromDate: '2026-11-23T00:00:00.000Z', toDate: '2026-11-30T00:00:00.000Z', agents: [agent] },
    });
    const [line] = mail.attachments[0]!.content.split('\r\n').slice(1);
    expect(line).toBe(`agt-1,"'=HYPERLINK(""x"")","Smith, Jr.",101,0,0,0,60,0,0,60,0,0,0,0,,0`);
  });
});
