/**
 * How the dashboard reaches the service: with an API token, kept in session storage (or local
 * storage when the user chose "remember on this device") and never in a URL; or with the session of
 * a person signed in at the company's identity provider, a cookie of this site that the page cannot
 * read, so that nothing of it is ever stored here.
 */
import type { Person, Role } from '../../contract/session.js';

/** Typed by hand for services that do not offer `/v1/me`. */
export interface ManualScope {
  accountID: string;
  applicationID: string;
  providerIDs: string[];
}

export interface TokenConnection {
  kind: 'token';
  /** Origin (and optional path prefix) of a service implementing the API; '' means this origin. */
  baseURL: string;
  token: string;
  remember: boolean;
  manualScope?: ManualScope;
}

/** A signed-in person: the browser sends the session cookie itself; state-changing requests carry the CSRF token. */
export interface SessionConnection {
  kind: 'session';
  /** Always this origin: the session is a cookie of this site. */
  baseURL: '';
  csrfToken: string;
  person: Person;
  roles: Role[];
}

export type Connection = TokenConnection | SessionConnection;

/** A token's hand-typed scope; a session always has `/v1/me`. */
export const manualScopeOf = (connection: Connection): ManualScope | undefined =>
  connection.kind === 'token' ? connection.manualScope : undefined;

const KEY = 'callboard.connection';

const parse = (text: string | null): TokenConnection | undefined => {
  if (!text) return undefined;
  try {
    const value = JSON.parse(text) as Partial<TokenConnection>;
    if (typeof value.token !== 'string' || value.token === '' || typeof value.baseURL !== 'string') return undefined;
    const manual = value.manualScope;
    const manualScope =
      manual && typeof manual.accountID === 'string' && typeof manual.applicationID === 'string' && Array.isArray(manual.providerIDs)
        ? { accountID: manual.accountID, applicationID: manual.applicationID, providerIDs: manual.providerIDs.filter((id) => typeof id === 'string') }
        : undefined;
    return { kind: 'token', baseURL: value.baseURL, token: value.token, remember: value.remember === true, ...(manualScope ? { manualScope } : {}) };
  } catch {
    return undefined;
  }
};

export const loadConnection = (): TokenConnection | undefined =>
  parse(sessionStorage.getItem(KEY)) ?? parse(localStorage.getItem(KEY));

/** Only a token connection is kept: a session lives in its cookie, and nothing of it is written here. */
export const saveConnection = (connection: TokenConnection): void => {
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
