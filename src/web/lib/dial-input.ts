/** Turns what people paste into a dialable number: digits only, country prefix kept as typed. */

export type DialInput = { ok: true; digits: string } | { ok: false; digits: string; error: string };

const SEPARATORS = /[\s\-.()/\u00a0\u2010-\u2015]/g;

export const parseDialInput = (text: string): DialInput => {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, digits: '', error: 'Enter the number to call.' };
  let compact = trimmed.replace(SEPARATORS, '');
  if (compact.startsWith('+')) compact = compact.slice(1);
  else if (compact.startsWith('00')) compact = compact.slice(2);
  const digits = compact.replace(/\D/g, '');
  const stray = compact.match(/[^0-9]/);
  if (stray) return { ok: false, digits, error: `"${stray[0]}" is not part of a phone number: use digits, spaces, dashes, dots, parentheses and a leading +.` };
  if (digits.length < 3) return { ok: false, digits, error: 'A phone number has at least 3 digits.' };
  if (digits.length > 15) return { ok: false, digits, error: `A phone number has at most 15 digits; this has ${digits.length}.` };
  return { ok: true, digits };
};
