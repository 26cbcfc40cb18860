/** The few cookies the service sets (a person's session, a sign-in under way): read from the request, written with their flags. */

/** A cookie's value from a Cookie header; undefined when absent. */
export const cookieValue = (header: string | undefined, name: string): string | undefined => {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
};

export interface CookieFlags {
  /** Sent only over https (every cookie of a service reached by https). */
  secure: boolean;
  path: string;
  /** Seconds; 0 deletes it; absent, it lasts while the browser runs. */
  maxAgeSeconds?: number;
}

/** Always httpOnly (no script reads it) and SameSite=Lax (not sent on another site's POST, sent on the identity provider's redirect back). */
export const setCookie = (name: string, value: string, flags: CookieFlags): string =>
  [
    `${name}=${value}`,
    `Path=${flags.path}`,
    'HttpOnly',
    'SameSite=Lax',
    ...(flags.secure ? ['Secure'] : []),
    ...(flags.maxAgeSeconds === undefined ? [] : [`Max-Age=${flags.maxAgeSeconds}`]),
  ].join('; ');

/** The cookies' names: `__Host-` (https only, this host only, path /) where the service is reached by https. */
export const cookieNames = (secure: boolean) => ({
  session: secure ? '__Host-callboard-session' : 'callboard-session',
  signIn: secure ? '__Host-callboard-sign-in' : 'callboard-sign-in',
});
