import { describe, expect, it } from 'vitest';
import { formatPhoneNumber } from './format.js';
import { pendingCallNumber, phoneLinkHandlerURL, phoneLinkTarget } from './phone-links.js';

describe('phone links', () => {
  it('registers a handler URL of this origin with the %s the browser fills', () => {
    expect(phoneLinkHandlerURL('https://calls.example.com')).toBe('https://calls.example.com/call?number=%s');
  });

  it('lands a clicked tel: link in the call-back prefill, decoded, keeping the view parameters', () => {
    // What the browser makes of <a href="tel:+44%2020%207946%200958">: the whole URI, escaped once more.
    const search = `?number=${encodeURIComponent('tel:+44%2020%207946%200958')}&app=support`;
    const target = phoneLinkTarget(search);
    expect(target.pathname).toBe('/');
    expect(Object.fromEntries(new URLSearchParams(target.search))).toEqual({ app: 'support', dial: '+44 20 7946 0958' });
  });

  it('lands a link without a number on the live view', () => {
    expect(phoneLinkTarget('?number=')).toEqual({ pathname: '/', search: '' });
  });

  it('names the number a call-back link waiting for sign-in is for', () => {
    expect(pendingCallNumber('/?dial=15551234567&provider=pbx-main')).toBe(formatPhoneNumber('15551234567'));
    expect(pendingCallNumber(`/?dial=${encodeURIComponent('*67 555')}`)).toBe('*67 555');
    expect(pendingCallNumber('/analytics?dial=15551234567')).toBeUndefined();
    expect(pendingCallNumber('/?provider=pbx-main')).toBeUndefined();
    expect(pendingCallNumber(undefined)).toBeUndefined();
  });
});
