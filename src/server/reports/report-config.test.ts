import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../config/load-config.js';
import { testConfig } from '../test-support/test-app.js';

const smtp = { host: '127.0.0.1', port: 2525, security: 'none', from: 'Callboard <reports@example.com>' };
const schedule = {
  id: 'morning',
  account: 'acme',
  application: 'support',
  provider: 'pbx',
  at: 'daily 07:00',
  recipients: ['ops@example.com'],
};

/** The test config with queues on acme/support/pbx and the given `reports`, as the file's text. */
const withReports = (reports: object) => {
  const config = testConfig({ reports } as object);
  Object.assign(config.accounts[0]!.applications[0]!.providers[0]!, {
    queues: [
      { id: 'support', name: 'Support' },
      { id: 'billing', name: 'Billing' },
    ],
  });
  return JSON.stringify(config, null, 2);
};

const problems = (reports: object) => {
  try {
    parseConfig(withReports(reports), 'c.json');
  } catch (error) {
    return (error as Error).message;
  }
  return '';
};

describe("the config's reports", () => {
  it('are off when absent, and take a schedule with its defaults when given', () => {
    expect(parseConfig(JSON.stringify(testConfig()), 'c.json').reports).toBeUndefined();
    const reports = parseConfig(withReports({ smtp, schedules: [schedule] }), 'c.json').reports;
    expect(reports?.smtp).toMatchObject({ host: '127.0.0.1', port: 2525, security: 'none' });
    expect(reports?.claimSeconds).toBe(300);
    expect(reports?.schedules[0]).toMatchObject({ reports: ['summary', 'intervals', 'agents'], intervalMinutes: 60 });
    expect(
      parseConfig(withReports({ smtp: { host: 'mail.example.com', from: 'r@example.com' }, schedules: [schedule] }), 'c.json')
        .reports?.smtp,
    ).toMatchObject({
      port: 587,
      security: 'starttls',
    });
  });

  it('name a bad schedule text, a bad address, a missing provider or queue, and a duplicate id where they stand', () => {
    expect(problems({ smtp, schedules: [{ ...schedule, at: 'daily 7am' }] })).toMatch(
      /^c\.json:\d+:\d+: reports › schedule "morning" › at: must be "daily HH:MM" or "weekly DAY HH:MM"/,
    );
    expect(problems({ smtp, schedules: [{ ...schedule, recipients: ['ops@example.com', 'not an address'] }] })).toMatch(
      /reports › schedule "morning" › recipients\.1: must be an email address/,
    );
    expect(problems({ smtp, schedules: [{ ...schedule, provider: 'nope' }] })).toMatch(
      /schedule "morning" › provider: no provider "nope" in application "support"/,
    );
    expect(problems({ smtp, schedules: [{ ...schedule, application: 'nope' }] })).toMatch(
      /schedule "morning" › application: no application "nope" in account "acme"/,
    );
    expect(problems({ smtp, schedules: [{ ...schedule, queues: ['support', 'sales'] }] })).toMatch(
      /schedule "morning" › queues\.1: no queue "sales" in provider "pbx"/,
    );
    expect(problems({ smtp, schedules: [schedule, { ...schedule, at: 'weekly mon 07:00' }] })).toMatch(
      /c\.json:150:\d+: reports › schedule "morning" › id: duplicate schedule id "morning"/,
    );
    expect(problems({ smtp, schedules: [{ ...schedule, reports: ['summary', 'calls'] }] })).toMatch(
      /reports\.1: must be one of "summary", "intervals", "agents"/,
    );
    expect(problems({ smtp, schedules: [] })).toMatch(/reports\.schedules: is empty/);
  });

  it('want both a user and a password or neither, a sender address, and keep the password out of what is printed', () => {
    expect(problems({ smtp: { ...smtp, user: 'reports' }, schedules: [schedule] })).toMatch(
      /reports\.smtp: give both "user" and "password"/,
    );
    expect(problems({ smtp: { ...smtp, from: 'Callboard' }, schedules: [schedule] })).toMatch(
      /reports\.smtp\.from: must be an email address/,
    );
    process.env.REPORTS_SMTP_TEST_PASSWORD = 'smtp-password-value';
    const reports = parseConfig(
      withReports({ smtp: { ...smtp, user: 'reports', password: { env: 'REPORTS_SMTP_TEST_PASSWORD' } }, schedules: [schedule] }),
      'c.json',
    ).reports;
    expect(reports?.smtp.password?.reveal()).toBe('smtp-password-value');
    expect(inspect(reports, { depth: 5 }) + JSON.stringify(reports)).not.toContain('smtp-password-value');
  });
});
