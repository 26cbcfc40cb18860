/** The parts of a SIP URI the provider reads: the user part and the URI parameters. */

export interface SipURIParts {
  /** The user part without any password; empty when the URI has none. */
  user: string;
  params: ReadonlyMap<string, string>;
}

const SIP_URI = /^<?sips?:(?:([^@]*)@)?[^;?>]*([^?>]*)/i;

export const parseSipURI = (uri: string): SipURIParts => {
  const match = SIP_URI.exec(uri.trim());
  const params = new Map<string, string>();
  for (const param of (match?.[2] ?? '').split(';').slice(1)) {
    const [name = '', value = ''] = param.split('=', 2);
    if (name !== '') params.set(name.toLowerCase(), value);
  }
  const user = match?.[1] ?? '';
  return { user: decodeURIComponent(user.split(':', 1)[0] ?? ''), params };
};

/** The user part as a phone number: digits only (a leading "+" dropped), or empty when it is not one. */
export const phoneNumberOf = (user: string): string => /^\+?([0-9]{1,15})$/.exec(user)?.[1] ?? '';

export const sipURI = (user: string, domain: string): string => `sip:${user}@${domain}`;
