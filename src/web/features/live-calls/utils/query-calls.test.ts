import { describe, expect, it } from 'vitest';
import type { CallRecord } from '../../../../contract/call-record.js';
import {
  describeSubscriber,
  filterCalls,
  matchesSearch,
  sortCalls,
  subscriberChoices,
  UNASSIGNED,
  type CallFilters,
} from './query-calls.js';
import { callRecord } from '../../../test-support/call-record.js';

const call = (callID: string, extra: Partial<CallRecord> = {}): CallRecord => callRecord(callID, { providerCallID: `p-${callID}`, providerID: 'prov-1', providerName: 'Simulator', remoteNumber: '15550100001', startedAt: '2026-11-22T10:00:00.000Z', ...extra });

const none: CallFilters = { states: [], directions: [], subscriber: '', search: '' };

describe('matchesSearch', () => {
  const grace = call('call-42', {
    remoteNumber: '15550100001',
    remoteName: 'Grace Hopper',
    subscriberID: 'sub-1',
    subscriberFirstName: 'Ada',
    subscriberLastName: 'Lovelace',
    subscriberExtension: '201',
  });

  it.each([
    ['stored digits', '5550100001'],
    ['the number as formatted on screen', '+1 (555) 010-0001'],
    ['the number typed with dashes', '555-010-0001'],
    ['the remote name, any case', 'grace hop'],
    ["the subscriber's full name", 'Ada Lovelace'],
    ['the extension', '201'],
    ['the call ID', 'CALL-42'],
  ])('finds a call by %s', (_what, query) => {
    expect(matchesSearch(grace, query)).toBe(true);
  });

  it('does not match what is not there', () => {
    expect(matchesSearch(grace, 'Turing')).toBe(false);
    expect(matchesSearch(grace, '999')).toBe(false);
  });

  it('finds withheld numbers by the word shown for them', () => {
    expect(matchesSearch(call('w', { remoteNumber: '' }), 'withheld')).toBe(true);
  });
});

describe('filterCalls', () => {
  const ringing = call('ringing');
  const talking = call('talking', { answeredAt: '2026-11-22T10:00:05.000Z', isOutbound: true, subscriberID: 'sub-2' });
  const missed = call('missed', { isMissedCall: true, endedAt: '2026-11-22T10:00:30.000Z' });
  const calls = [ringing, talking, missed];

  it('keeps every call without filters', () => {
    expect(filterCalls(calls, none)).toEqual(calls);
  });

  it('filters by state, direction and subscriber together', () => {
    expect(filterCalls(calls, { ...none, states: ['ringing', 'missed'] })).toEqual([ringing, missed]);
    expect(filterCalls(calls, { ...none, directions: ['outbound'] })).toEqual([talking]);
    expect(filterCalls(calls, { ...none, subscriber: 'sub-2' })).toEqual([talking]);
    expect(filterCalls(calls, { ...none, subscriber: UNASSIGNED })).toEqual([ringing, missed]);
    expect(filterCalls(calls, { ...none, states: ['talking'], directions: ['inbound'] })).toEqual([]);
  });
});

describe('sortCalls', () => {
  it('sorts both ways and keeps the API order between equal keys', () => {
    const a = call('a', { startedAt: '2026-11-22T10:00:00.000Z', providerName: 'B' });
    const b = call('b', { startedAt: '2026-11-22T10:00:01.000Z', providerName: 'A' });
    const c = call('c', { startedAt: '2026-11-22T10:00:02.000Z', providerName: 'B' });
    expect(sortCalls([c, b, a], (x) => x.providerName, 'asc').map((x) => x.callID)).toEqual(['b', 'a', 'c']);
    expect(sortCalls([a, b, c], (x) => x.providerName, 'desc').map((x) => x.callID)).toEqual(['c', 'a', 'b']);
  });

  it('gives back a list already in order as it is, and one in reverse order reversed', () => {
    const calls = ['01', '02', '03', '04'].map((second) => call(`c${second}`, { startedAt: `2026-11-22T10:00:${second}.000Z` }));
    const started = (x: CallRecord) => Date.parse(x.startedAt);
    expect(sortCalls(calls, started, 'asc')).toBe(calls);
    expect(sortCalls(calls, started, 'desc').map((x) => x.callID)).toEqual(['c04', 'c03', 'c02', 'c01']);
    const shuffled = [calls[2], calls[0], calls[3], calls[1]] as CallRecord[];
    expect(sortCalls(shuffled, started, 'asc').map((x) => x.callID)).toEqual(['c01', 'c02', 'c03', 'c04']);
  });

  it('compares numbers as numbers', () => {
    const calls = [call('ten'), call('nine'), call('hundred')];
    const keys: Record<string, number> = { ten: 10, nine: 9, hundred: 100 };
    expect(sortCalls(calls, (x) => keys[x.callID] ?? 0, 'asc').map((x) => x.callID)).toEqual(['nine', 'ten', 'hundred']);
  });
});

describe('subscriberChoices', () => {
  const calls = [
    call('1', { subscriberID: 's2', subscriberFirstName: 'Zoe', subscriberLastName: 'Young', subscriberExtension: '9' }),
    call('2', { subscriberID: 's1', subscriberFirstName: 'Ada', subscriberLastName: 'Lovelace' }),
    call('3', { subscriberID: 's2', subscriberFirstName: 'Zoe', subscriberLastName: 'Young', subscriberExtension: '9' }),
    call('4'),
  ];

  it('lists the unassigned calls, then each subscriber once by name, with their calls', () => {
    expect(subscriberChoices(calls, '')).toEqual({
      options: [
        { value: UNASSIGNED, label: 'Not assigned', calls: 1 },
        { value: 's1', label: 'Ada Lovelace', calls: 1 },
        { value: 's2', label: 'Zoe Young (ext. 9)', calls: 2 },
      ],
      more: 0,
    });
  });

  it('narrows by every word typed, in the name, the extension or the ID', () => {
    expect(subscriberChoices(calls, '', 'young 9').options.map((o) => o.value)).toEqual(['s2']);
    expect(subscriberChoices(calls, '', 'S1').options.map((o) => o.value)).toEqual(['s1']);
    expect(subscriberChoices(calls, '', 'nobody')).toEqual({ options: [], more: 0 });
  });

  it('cuts a long list and says how many more match', () => {
    const many = Array.from({ length: 5000 }, (_, i) => call(`c${i}`, { subscriberID: `s${i}`, subscriberFirstName: `Agent ${i}` }));
    const { options, more } = subscriberChoices(many, '', '', 30);
    expect(options).toHaveLength(30);
    expect(options[0]?.label).toBe('Agent 0');
    expect(more).toBe(4970);
    expect(subscriberChoices(many, '', 'agent 4999', 30)).toEqual({
      options: [{ value: 's4999', label: 'Agent 4999', calls: 1 }],
      more: 0,
    });
  });

  it('keeps the selected subscriber listed after their calls are gone', () => {
    expect(subscriberChoices([], 'sub-9').options).toEqual([{ value: 'sub-9', label: 'sub-9 (no current calls)', calls: 0 }]);
    expect(subscriberChoices([], UNASSIGNED).options).toEqual([{ value: UNASSIGNED, label: 'Not assigned', calls: 0 }]);
  });

  it('describes the choice on the closed filter', () => {
    expect(describeSubscriber(calls, 's2')).toBe('Zoe Young (ext. 9)');
    expect(describeSubscriber(calls, UNASSIGNED)).toBe('Not assigned');
    expect(describeSubscriber(calls, 'gone')).toBe('gone');
  });
});

describe('matchesSearch in the default country', () => {
  const london = call('london', { remoteNumber: '442079460958' });

  it.each([
    ['as shown, with the country code', '+44 20 7946 0958'],
    ['as a caller in the UK writes it', '020 7946 0958'],
    ['as UK digits with the trunk 0', '02079460958'],
  ])('finds a UK number %s', (_what, query) => {
    expect(matchesSearch(london, query, 'GB')).toBe(true);
    expect(matchesSearch(london, query, 'US')).toBe(true);
  });

  it('reads numbers stored without a country code as numbers of the chosen country', () => {
    const local = call('local', { remoteNumber: '02079460958' });
    expect(matchesSearch(local, '020 7946 0958', 'GB')).toBe(true);
    expect(matchesSearch(call('us', { remoteNumber: '4155550123' }), '(415) 555-0123', 'US')).toBe(true);
  });
});
