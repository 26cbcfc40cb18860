import { describe, expect, it } from 'vitest';
import { decodeTelURI, parseDialInput } from './dial-input.js';

describe('parseDialInput', () => {
  it.each([
    ['+1 (555) 123-4567', '15551234567'],
    ['555.123.4567', '5551234567'],
    ['0044 20 7946 0958', '442079460958'],
    ['+44 (0)20 7946 0958', '4402079460958'],
    ['  555 0199  ', '5550199'],
    ['555–0199', '5550199'],
  ])('reads %s as %s', (text, digits) => {
    expect(parseDialInput(text)).toEqual({ ok: true, digits });
  });

  it.each([
    ['', /Enter the number/],
    ['12', /at least 3 digits/],
    ['1234567890123456', /at most 15 digits; this has 16/],
    ['555-CALL-NOW', /"C" is not part of a phone number/],
    ['555 0199 ext 12', /"e" is not part of a phone number/],
  ])('refuses %j', (text, message) => {
    const result = parseDialInput(text);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(message);
  });
});

describe('parseDialInput with tel: links (RFC 3966)', () => {
  it.each([
    ['tel:+1-555-555-0123', '15555550123'],
    ['TEL:+1.555.555.0123', '15555550123'],
    ['tel:+44%2020%207946%200958', '442079460958'],
    ['tel:+1%20(555)%20555-0123', '15555550123'],
    ['tel://+15555550123', '15555550123'],
    ['  tel:+1-555-555-0123  ', '15555550123'],
    ['tel:+1-555-555-0123;isub=1411', '15555550123'],
  ])('reads %s as %s', (uri, digits) => {
    expect(parseDialInput(uri)).toEqual({ ok: true, digits });
  });

  it('keeps the extension apart: the phone system dials the number only', () => {
    expect(parseDialInput('tel:+1-555-555-0123;ext=1234')).toEqual({ ok: true, digits: '15555550123', extension: '1234' });
    expect(parseDialInput('+1-555-555-0123;EXT=12-34')).toEqual({ ok: true, digits: '15555550123', extension: '1234' });
  });

  it('puts a + context in front of a local number, and dials a local number of a domain as written', () => {
    expect(parseDialInput('tel:7946-0958;phone-context=+44-20')).toEqual({ ok: true, digits: '442079460958' });
    expect(parseDialInput('tel:7042;phone-context=example.com')).toEqual({ ok: true, digits: '7042', localTo: 'example.com' });
    // A global number is complete: its context adds nothing.
    expect(parseDialInput('tel:+1-555-555-0123;phone-context=+44')).toEqual({ ok: true, digits: '15555550123' });
  });

  it.each([
    ['tel:', /Enter the number/],
    ['tel:+1-555-555-0123;ext=12a', /extension "12a" must be 1 to 10 digits/],
    ['tel:555-0123;phone-context=+4x', /context "\+4x" is not a country or area prefix/],
    ['tel:*67-555-0123', /"\*" is not part of a phone number/],
    ['tel:+1-555%2-0123', /"%" is not part of a phone number/],
    ['tel:+1-555-555-0123;=x', /";=x" is not part of a phone number/],
    ['tel:123456789012;phone-context=+44-20', /at most 15 digits; this has 16/],
  ])('refuses %j plainly', (uri, message) => {
    const result = parseDialInput(uri);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(message);
  });
});

describe('decodeTelURI', () => {
  it('drops the scheme and undoes percent-encoding, and leaves other text alone', () => {
    expect(decodeTelURI('tel:+44%2020%207946%200958;ext=12')).toBe('+44 20 7946 0958;ext=12');
    expect(decodeTelURI('+44%2020')).toBe('+44%2020');
  });
});
