/**
 * A browser's part of signing in, for tests without one: the service's own routes through
 * `inject`, the identity provider's pages over HTTP with a cookie jar of their own, the login form
 * filled in as a person would. Each step is a function, so a test can replay or reorder them.
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { authPaths } from '../../contract/session.js';

const setCookies = (response: LightMyRequestResponse): string[] => {
  const header = response.headers['set-cookie'];
  return header === undefined ? [] : Array.isArray(header) ? header : [header];
};

/** The value a response sets for a cookie (by name); undefined when it sets none. */
export const cookieSet = (response: LightMyRequestResponse, name: string): string | undefined => {
  const line = setCookies(response).find((cookie) => cookie.startsWith(`${name}=`));
  return line?.slice(name.length + 1).split(';')[0];
};

/** The whole Set-Cookie line for a cookie. */
export const cookieLine = (response: LightMyRequestResponse, name: string): string | undefined =>
  setCookies(response).find((cookie) => cookie.startsWith(`${name}=`));

export interface StartedSignIn {
  /** The identity provider's authorization URL the service redirected to. */
  authorizationURL: URL;
  state: string;
  /** The sign-in cookie's value (the state, in this browser). */
  signInCookie: string;
}

export const startSignIn = async (app: FastifyInstance, signInCookieName: string, returnTo?: string): Promise<StartedSignIn> => {
  const response = await app.inject({ method: 'GET', url: authPaths.signIn(returnTo) });
  if (response.statusCode !== 302) throw new Error(`sign-in did not redirect: ${response.statusCode} ${response.body}`);
  const authorizationURL = new URL(response.headers.location as string);
  const signInCookie = cookieSet(response, signInCookieName);
  if (!signInCookie) throw new Error('sign-in set no cookie');
  return { authorizationURL, state: authorizationURL.searchParams.get('state') as string, signInCookie };
};

/**
 * Signs `login` in at the identity provider's own pages (oidc-provider's sign-in form), following
 * its redirects until it sends the browser to `redirectURI`: that URL, with its code and state.
 */
export const loginAtProvider = async (authorizationURL: URL, login: string, redirectURI: string): Promise<URL> => {
  const jar = new Map<string, string>();
  const remember = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = (pair ?? '').indexOf('=');
      if (at > 0) jar.set((pair as string).slice(0, at), (pair as string).slice(at + 1));
    }
  };
  const cookie = () => [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
  let url = authorizationURL;
  let init: RequestInit = {};
  for (let hop = 0; hop < 12; hop += 1) {
    const response = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), cookie: cookie() },
    });
    remember(response);
    const location = response.headers.get('location');
    if (location) {
      await response.arrayBuffer();
      const next = new URL(location, url);
      if (next.toString().startsWith(redirectURI)) return next;
      url = next;
      init = {};
      continue;
    }
    const page = await response.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(page)?.[1];
    if (!action || !page.includes('name="login"'))
      throw new Error(`the identity provider showed no sign-in form (${response.status}): ${page.slice(0, 300)}`);
    url = new URL(action.replaceAll('&amp;', '&'), url);
    init = {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ prompt: 'login', login, password: 'any password' }).toString(),
    };
  }
  throw new Error('the identity provider kept redirecting');
};

/** The service's callback, as the browser that started the sign-in calls it. */
export const finishSignIn = (app: FastifyInstance, callbackURL: URL, cookies: string): Promise<LightMyRequestResponse> =>
  app.inject({ method: 'GET', url: `${callbackURL.pathname}${callbackURL.search}`, headers: { cookie: cookies } });
