import { describe, expect, it } from 'vitest';
import type { CallRecord } from '../../../../contract/call-record.js';
import { csvCell } from '../../../../contract/csv.js';
import { csvFileName } from '../../../lib/csv.js';
import { callsToCsv } from './calls-csv.js';

const base: CallRecord = {
  callID: 'c1',
  providerCallID: 'p1',
  providerID: 'prov-1',
  providerName: 'Simulator',
  isOutbound: false,
  isMissedCall: false,
  remoteNumber: '15550100001',
  startedAt: '2026-11-22T10:00:00.000Z',
};

describe('csvCell', () => {
  it('quotes only what RFC 4180 requires, doubling inner quotes', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('Hopper, Grace')).toBe('"Hopper, Grace"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
  });

  it.each(['=1+2', '+1 555', '-2', '@SUM(A1)', '\tTab'])('defuses %j so a spreadsheet shows it as text', (value) => {
    expect(csvCell(value).replace(/^"/, '')).toMatch(/^'/);
  });

  it('defuses and quotes a formula that also holds a comma', () => {
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
  });
});

describe('callsToCsv', () => {
  it('writes every field of the record (the spec’s, then our extensions), then state and duration, one CRLF-ended line per call', () => {
    const now = Date.parse('2026-11-22T10:05:00.000Z');
    const csv = callsToCsv(
      [
        {
          ...base,
          remoteName: '=cmd|calc',
          answeredAt: '2026-11-22T10:01:00.000Z',
          calledNumber: '18005550100',
          queueID: 'support',
          queueName: 'Support',
        },
        {
          ...base,
          callID: 'c2',
          remoteNumber: '',
          isMissedCall: true,
          endedAt: '2026-11-22T10:00:42.000Z',
          remoteName: 'Smith, "Jo"',
          endedBy: 'supervisor',
        },
      ],
      now,
    );
    const lines = csv.split('\r\n');
    expect(lines).toHaveLength(4);
    expect(lines[3]).toBe('');
    expect(lines[0]).toBe(
      'callID,providerCallID,providerID,providerName,isOutbound,isMissedCall,remoteNumber,remoteName,startedAt,answeredAt,endedAt,' +
        'chosenContactID,subscriberID,subscriberFirstName,subscriberLastName,subscriberEmail,subscriberExtension,subscriberNumber,' +
        'subscriberAnsweredAt,endedBy,calledNumber,queueID,queueName,state,durationSeconds,durationMeasures',
    );
    expect(lines[1]).toBe(
      "c1,p1,prov-1,Simulator,false,false,15550100001,'=cmd|calc,2026-11-22T10:00:00.000Z,2026-11-22T10:01:00.000Z,,,,,,,,,,,18005550100,support,Support,talking,240,talk",
    );
    expect(lines[2]).toBe(
      'c2,p1,prov-1,Simulator,false,true,,"Smith, ""Jo""",2026-11-22T10:00:00.000Z,,2026-11-22T10:00:42.000Z,,,,,,,,,supervisor,,,,missed,42,total',
    );
  });
});

describe('csvFileName', () => {
  it('names the file by the UTC date and time', () => {
    expect(csvFileName('calls', Date.parse('2026-11-22T14:03:27.512Z'))).toBe('callboard-calls-2026-11-22T14-03-27Z.csv');
  });
});
