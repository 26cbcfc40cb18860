import { describe, expect, it } from 'vitest';
import { callerOf, clickToCallNumber } from './call-leg.js';

const invite = (uriParams: Record<string, string>, headerParams: Record<string, string> = {}) =>
  ({ to: { uri: { getParam: (key: string) => uriParams[key] }, getParam: (key: string) => headerParams[key] } }) as unknown as Parameters<typeof clickToCallNumber>[0];

const identity = (user: string, display_name = '') => ({ uri: { user }, display_name }) as unknown as Parameters<typeof callerOf>[0];

describe('what an INVITE says of its call', () => {
  it("finds a click-to-call leg's number on the To URI, or on a To header written without angle brackets", () => {
    expect(clickToCallNumber(invite({ 'callboard-remote': '4420794609580', 'callboard-call': '9f2c' }))).toBe('4420794609580');
    expect(clickToCallNumber(invite({}, { 'callboard-remote': '15555550100' }))).toBe('15555550100');
    expect(clickToCallNumber(invite({}))).toBeUndefined();
    expect(clickToCallNumber(invite({ 'callboard-remote': '+1 555' }))).toBeUndefined();
  });

  it("reads the caller's number as digits and their name apart from it; a withheld number is empty", () => {
    expect(callerOf(identity('+15555550100', 'Globex Corp'))).toEqual({ remoteNumber: '15555550100', remoteName: 'Globex Corp' });
    expect(callerOf(identity('15555550100', '15555550100'))).toEqual({ remoteNumber: '15555550100' });
    expect(callerOf(identity('anonymous', 'Anonymous'))).toEqual({ remoteNumber: '' });
    expect(callerOf(identity('alice', 'Alice'))).toEqual({ remoteNumber: 'alice', remoteName: 'Alice' });
  });
});
