/**
 * What an INVITE to the browser says of its call: the first leg of a click-to-call (the phone system
 * rings the agent's browser with `callboard-remote=<digits>` on the To URI before it calls that
 * number), or someone calling the agent, with the number and name their phone system gives.
 */
import type { NameAddrHeader } from 'jssip/lib/NameAddrHeader.js';
import type { IncomingRequest } from 'jssip/lib/SIPMessage.js';

const REMOTE_PARAM = 'callboard-remote';

const DIGITS = /^[0-9]{1,15}$/;

/** The number a click-to-call leg is for; undefined for any other INVITE. */
export const clickToCallNumber = (request: Pick<IncomingRequest, 'to'>): string | undefined => {
  // On the URI as sent (`<sip:1001@pbx;callboard-remote=…>`); a To without angle brackets puts it on the header.
  const value: unknown = request.to.uri.getParam(REMOTE_PARAM) ?? request.to.getParam(REMOTE_PARAM);
  return typeof value === 'string' && DIGITS.test(value) ? value : undefined;
};

/** Who calls: their number as digits (empty when withheld), their name where their phone system gives one apart from the number. */
export const callerOf = (identity: Pick<NameAddrHeader, 'uri' | 'display_name'>): { remoteNumber: string; remoteName?: string } => {
  const user = identity.uri.user ?? '';
  const withheld = user === '' || /^anonymous$/i.test(user);
  const remoteNumber = withheld ? '' : DIGITS.test(user.replace(/^\+/, '')) ? user.replace(/^\+/, '') : user;
  const name = identity.display_name?.trim() ?? '';
  return name === '' || name === user || name === remoteNumber || /^anonymous$/i.test(name) ? { remoteNumber } : { remoteNumber, remoteName: name };
};
