import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseDialInput } from './dial-input.js';
import { formatPhoneNumber, nationalPhoneNumber, timeZoneLabel } from './format.js';
import { browserPhoneCountry, setDefaultPhoneCountry } from './phone-country.js';

afterEach(() => setDefaultPhoneCountry(browserPhoneCountry()));

describe('formatPhoneNumber', () => {
  it.each([
    ['a US number', '14155550123', '+1 (415) 555-0123'],
    ['a Canadian number', '16135550142', '+1 (613) 555-0142'],
    ['a London number', '442079460958', '+44 20 7946 0958'],
    ['an Edinburgh number', '441318885496', '+44 131 888 5496'],
    ['a UK mobile', '447911123456', '+44 7911 123456'],
    ['an Australian mobile', '61431710128', '+61 431 710 128'],
    ['a Sydney number', '61292374000', '+61 2 9237 4000'],
    ['a French mobile', '33612345678', '+33 6 12 34 56 78'],
    ['a Paris number', '33142345678', '+33 1 42 34 56 78'],
    ['a German mobile', '491701234567', '+49 170 1234567'],
    ['a Berlin number', '493012345678', '+49 30 12345678'],
    ['a Mexico City number', '525512345678', '+52 55 1234 5678'],
  ])('writes %s with its country code as that country does (%s → %s)', (_, digits, text) => {
    expect(formatPhoneNumber(digits, 'US')).toBe(text);
    // The default country changes nothing for a number that carries its country code.
    expect(formatPhoneNumber(digits, 'DE')).toBe(text);
  });

  it('groups fictional numbers (555, Ofcom drama ranges) that are possible but not assigned', () => {
    expect(formatPhoneNumber('15551234567', 'US')).toBe('+1 (555) 123-4567');
    expect(formatPhoneNumber('447700900123', 'US')).toBe('+44 7700 900123');
  });

  it.each([
    ['US', '4155550123', '(415) 555-0123'],
    ['US', '5551234567', '(555) 123-4567'],
    ['GB', '02079460958', '020 7946 0958'],
    ['GB', '07911123456', '07911 123456'],
    ['AU', '0431710128', '0431 710 128'],
    ['FR', '0612345678', '06 12 34 56 78'],
    ['DE', '030123456', '030 123456'],
  ])('reads a number without a country code as a number of the default country (%s: %s → %s)', (country, digits, text) => {
    expect(formatPhoneNumber(digits, country as 'US')).toBe(text);
  });

  it('prefers the reading that is a real number: a German number, not a US one of the same length', () => {
    expect(formatPhoneNumber('4930123456', 'US')).toBe('+49 30 123456');
    expect(formatPhoneNumber('8185550123', 'US')).toBe('(818) 555-0123');
  });

  it('uses the default country when none is given, and follows it when it changes', () => {
    setDefaultPhoneCountry('US');
    expect(formatPhoneNumber('4155550123')).toBe('(415) 555-0123');
    expect(formatPhoneNumber('15551234567')).toBe('+1 (555) 123-4567');
    setDefaultPhoneCountry('GB');
    expect(formatPhoneNumber('02079460958')).toBe('020 7946 0958');
    expect(formatPhoneNumber('4155550123')).not.toBe('(415) 555-0123');
  });

  it('says "Withheld" for a withheld number', () => {
    expect(formatPhoneNumber('', 'US')).toBe('Withheld');
  });

  it.each(['101', '2045', '99999', '123456'])('shows the internal extension or short code %s as dialed', (digits) => {
    expect(formatPhoneNumber(digits, 'US')).toBe(digits);
    expect(formatPhoneNumber(digits, 'GB')).toBe(digits);
  });

  it.each([
    ['letters', 'call-me'],
    ['a formatted number rather than digits', '+1 (415) 555-0123'],
    ['more digits than any phone number has', '1234567890123456'],
    ['digits that are no number of any country', '0000000000'],
  ])('shows %s unchanged rather than inventing a grouping', (_, input) => {
    expect(formatPhoneNumber(input, 'US')).toBe(input);
  });

  it.each(['14155550123', '442079460958', '61431710128', '33612345678', '491701234567', '15551234567'])(
    'gives back the same digits when %s is pasted as shown (call back, copy)',
    (digits) => {
      expect(parseDialInput(formatPhoneNumber(digits, 'FR'))).toEqual({ ok: true, digits });
    },
  );
});

describe('nationalPhoneNumber', () => {
  it('writes a number given with its country code the way its own country does', () => {
    expect(nationalPhoneNumber('442079460958', 'US')).toBe('020 7946 0958');
    expect(nationalPhoneNumber('14155550123', 'GB')).toBe('(415) 555-0123');
  });

  it('has nothing to add for numbers without a country code, extensions and withheld numbers', () => {
    expect(nationalPhoneNumber('02079460958', 'GB')).toBeUndefined();
    expect(nationalPhoneNumber('2045', 'GB')).toBeUndefined();
    expect(nationalPhoneNumber('', 'GB')).toBeUndefined();
  });
});

describe('timeZoneLabel', () => {
  it('says the zone once when its short name is its name', () => {
    expect(timeZoneLabel('UTC')).toBe('UTC');
  });

  it('adds the short name in force at that moment', () => {
    expect(timeZoneLabel('Europe/Paris', Date.parse('2026-01-15T12:00:00Z'))).toMatch(/^Europe\/Paris \((CET|GMT\+1)\)$/);
    expect(timeZoneLabel('America/New_York', Date.parse('2026-07-15T12:00:00Z'))).toMatch(/^America\/New_York \((EDT|GMT-4)\)$/);
  });
});

describe('before the phone rules have loaded', () => {
  it('shows numbers as their digits, never a made-up grouping, and writes them out once the rules arrive', async () => {
    vi.resetModules();
    const fresh = await import('./format.js');
    const loader = await import('./phone-rules-loader.js');
    expect(loader.phoneRules()).toBeUndefined();
    expect(fresh.formatPhoneNumber('442079460958', 'US')).toBe('442079460958');
    expect(fresh.formatPhoneNumber('', 'US')).toBe('Withheld');
    expect(fresh.nationalPhoneNumber('442079460958', 'US')).toBeUndefined();

    await loader.loadPhoneRules();
    expect(fresh.formatPhoneNumber('442079460958', 'US')).toBe('+44 20 7946 0958');
  });
});
