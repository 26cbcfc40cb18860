/**
 * Where the dashboard connects and with which token. The token lives in session storage (or
 * local storage when the user chose "remember on this device"), never in a URL.
 */

/** Typed by hand for services that do not offer `/v1/me`. */
export interface ManualScope {
  accountID: string;
  applicationID: string;
  providerIDs: string[];
}

export interface Connection {
  /** Origin (and optional path prefix) of a service implementing the API; '' means this origin. */
  baseURL: string;
  token: string;
  remember: boolean;
  manualScope?: ManualScope;
}

const KEY = 'callboard.connection';

const parse = (text: string | null): Connection | undefined => {
  if (!text) return undefined;
  try {
    const value = JSON.parse(text) as Partial<Connection>;
    if (typeof value.token !== 'string' || value.token === '' || typeof value.baseURL !== 'string') return undefined;
    const manual = value.manualScope;
    const manualScope =
      manual && typeof manual.accountID === 'string' && typeof manual.applicationID === 'string' && Array.isArray(manual.providerIDs)
        ? { accountID: manual.accountID, applicationID: manual.applicationID, providerIDs: manual.providerIDs.filter((id) => typeof id === 'string') }
        : undefined;
    return { baseURL: value.baseURL, token: value.token, remember: value.remember === true, ...(manualScope ? { manualScope } : {}) };
  } catch {
    return undefined;
  }
};

export const loadConnection = (): Connection | undefined =>
  parse(sessionStorage.getItem(KEY)) ?? parse(localStorage.getItem(KEY));

export const saveConnection = (connection: Connection): void => {
  forgetConnection();
  const text = JSON.stringify(connection);
  sessionStorage.setItem(KEY, text);
  if (connection.remember) localStorage.setItem(KEY, text);
};

export const forgetConnection = (): void => {
  sessionStorage.removeItem(KEY);
  localStorage.removeItem(KEY);
};

/**
 * Reads a `#token=...` one-click sign-in link and removes the fragment from the address bar at
 * once, so the token is neither bookmarked nor shared by copying the URL.
 */
export const takeTokenFromFragment = (): string | undefined => {
  const hash = window.location.hash;
  if (!hash.startsWith('#')) return undefined;
  const token = new URLSearchParams(hash.slice(1)).get('token');
  if (token === null) return undefined;
  window.history.replaceState(window.history.state, '', window.location.pathname + window.location.search);
  return token === '' ? undefined : token;
};

/** Base URL as typed: trimmed, no trailing slash; empty for this origin. */
export const normalizeBaseURL = (text: string): string => text.trim().replace(/\/+$/, '');
