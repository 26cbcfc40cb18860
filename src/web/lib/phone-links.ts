/**
 * Phone (`tel:`) links clicked anywhere in the browser: the dashboard registers as their handler,
 * and `/call?number=<tel URI>` lands them in the click-to-call form, filled in, never dialed;
 * without a sign-in yet, the number waits in the address the connection page returns to.
 */
import { DIAL_PARAM } from './call-back.js';
import { decodeTelURI, parseDialInput } from './dial-input.js';
import { formatPhoneNumber } from './format.js';

export const PHONE_LINK_PATH = '/call';
const PHONE_LINK_PARAM = 'number';

/** The handler template the browser fills: it puts the whole `tel:` URI, escaped, in place of %s. */
export const phoneLinkHandlerURL = (origin: string): string => `${origin}${PHONE_LINK_PATH}?${PHONE_LINK_PARAM}=%s`;

/** Browsers without the API (Safari, most mobile ones) or pages not in a secure context cannot offer it. */
export const canHandlePhoneLinks = (): boolean =>
  typeof navigator.registerProtocolHandler === 'function' && window.isSecureContext;

/** Where a phone link lands: the live view's call-back prefill (see call-back.ts), other parameters (application, provider) kept. */
export const phoneLinkTarget = (search: string): { pathname: string; search: string } => {
  const params = new URLSearchParams(search);
  const number = params.get(PHONE_LINK_PARAM);
  params.delete(PHONE_LINK_PARAM);
  if (number !== null && number.trim() !== '') params.set(DIAL_PARAM, decodeTelURI(number));
  const query = params.toString();
  return { pathname: '/', search: query ? `?${query}` : '' };
};

/** The number a call-back link waiting for sign-in (a path such as `/?dial=...`) asks for, as people read it. */
export const pendingCallNumber = (path: string | undefined): string | undefined => {
  if (!path) return undefined;
  const url = new URL(path, 'http://localhost');
  const raw = url.pathname === '/' ? url.searchParams.get(DIAL_PARAM) : null;
  if (raw === null || raw.trim() === '') return undefined;
  const dial = parseDialInput(raw);
  return dial.ok ? formatPhoneNumber(dial.digits) : raw;
};
