import { describe, expect, it } from 'vitest';
import { parseDialInput } from './dial-input.js';

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
