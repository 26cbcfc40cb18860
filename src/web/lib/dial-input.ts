/**
 * Turns what people paste, or a `tel:` link (RFC 3966), into a dialable number: digits only,
 * country prefix kept as typed.
 */

export type DialInput =
  | {
      ok: true;
      digits: string;
      /** From `;ext=`: the phone system cannot dial it, so the agent asks for it once connected. */
      extension?: string;
      /** From `;phone-context=<domain>`: a local number of that domain, dialed as written. */
      localTo?: string;
    }
  | { ok: false; digits: string; error: string };

const SEPARATORS = /[\s\-.()/\u00a0\u2010-\u2015]/g;
const TEL_SCHEME = /^tel:(\/\/)?/i;
const PARAMETER = /^([A-Za-z0-9-]+)(?:=(.*))?$/;

const compact = (text: string) => text.replace(SEPARATORS, '');

/**
 * A `tel:` URI as people read it: the scheme dropped and its percent-encoding undone
 * (`tel:+44%2020%207946%200958` is `+44 20 7946 0958`); any other text as it is.
 */
export const decodeTelURI = (text: string): string => {
  const trimmed = text.trim();
  if (!TEL_SCHEME.test(trimmed)) return trimmed;
  const rest = trimmed.replace(TEL_SCHEME, '');
  try {
    return decodeURIComponent(rest);
  } catch {
    // A broken escape stays visible, and the number check below names the "%".
    return rest;
  }
};

interface Parameters {
  extension?: string;
  context?: string;
  error?: string;
}

/** `;ext=` and `;phone-context=` matter; other RFC 3966 parameters (`isub`, ...) change nothing we dial. */
const readParameters = (parts: string[]): Parameters => {
  const found: Parameters = {};
  for (const part of parts) {
    if (part.trim() === '') continue;
    const match = PARAMETER.exec(part.trim());
    if (!match) return { error: `";${part}" is not part of a phone number.` };
    const name = (match[1] ?? '').toLowerCase();
    const value = match[2] ?? '';
    if (name === 'ext') {
      const extension = compact(value);
      if (!/^[0-9]{1,10}$/.test(extension)) return { error: `The extension "${value}" must be 1 to 10 digits.` };
      found.extension = extension;
    } else if (name === 'phone-context') found.context = value;
  }
  return found;
};

/**
 * A local number with a `+` context is a number within that prefix (RFC 3966 3, as libphonenumber
 * reads it): `tel:7946-0958;phone-context=+44-20` dials 4420 then 79460958.
 */
const contextPrefix = (context: string | undefined): string | { error: string } | undefined => {
  if (context === undefined || !context.startsWith('+')) return undefined;
  const prefix = compact(context.slice(1));
  return /^[0-9]{1,15}$/.test(prefix) ? prefix : { error: `The number's context "${context}" is not a country or area prefix.` };
};

const checkDigits = (number: string, prefix = ''): DialInput => {
  let text = compact(number);
  if (text.startsWith('+')) text = text.slice(1);
  else if (text.startsWith('00')) text = text.slice(2);
  const stray = text.match(/[^0-9]/);
  const digits = prefix + text.replace(/\D/g, '');
  if (stray)
    return {
      ok: false,
      digits,
      error: `"${stray[0]}" is not part of a phone number: use digits, spaces, dashes, dots, parentheses and a leading +.`,
    };
  if (digits.length < 3) return { ok: false, digits, error: 'A phone number has at least 3 digits.' };
  if (digits.length > 15) return { ok: false, digits, error: `A phone number has at most 15 digits; this has ${digits.length}.` };
  return { ok: true, digits };
};

export const parseDialInput = (text: string): DialInput => {
  const [number = '', ...rest] = decodeTelURI(text).split(';');
  if (number.trim() === '') return { ok: false, digits: '', error: 'Enter the number to call.' };
  const parameters = readParameters(rest);
  if (parameters.error) return { ok: false, digits: compact(number).replace(/\D/g, ''), error: parameters.error };
  const global = compact(number).startsWith('+');
  // A global number carries its own prefix: a context beside it adds nothing.
  const prefix = global ? undefined : contextPrefix(parameters.context);
  if (typeof prefix === 'object') return { ok: false, digits: compact(number).replace(/\D/g, ''), error: prefix.error };
  const dial = checkDigits(number, prefix);
  if (!dial.ok) return dial;
  const localTo = !global && parameters.context !== undefined && prefix === undefined ? parameters.context : undefined;
  return {
    ...dial,
    ...(parameters.extension ? { extension: parameters.extension } : {}),
    ...(localTo ? { localTo } : {}),
  };
};
