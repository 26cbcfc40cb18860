/**
 * Marks a click-to-call in the SIP URI the subscriber's phone is rung at, so both of its dialogs
 * (the controller's leg, then the subscriber's call to the remote number) list as one call.
 */
import type { SipURIParts } from './sip-uri.js';

export interface ClickToCallTag {
  /** Random, unique per placed call; the call's callID derives from it. */
  callKey: string;
  remoteNumber: string;
  /** Epoch ms of the request: the call's start, finer than the dialog module's seconds. */
  placedAt: number;
}

const PARAM = { callKey: 'callboard-call', remoteNumber: 'callboard-remote', placedAt: 'callboard-at' } as const;

export const taggedURI = (uri: string, tag: ClickToCallTag): string =>
  `${uri};${PARAM.callKey}=${tag.callKey};${PARAM.remoteNumber}=${tag.remoteNumber};${PARAM.placedAt}=${tag.placedAt}`;

export const readTag = ({ params }: SipURIParts): ClickToCallTag | undefined => {
  const callKey = params.get(PARAM.callKey);
  const remoteNumber = params.get(PARAM.remoteNumber);
  const placedAt = Number(params.get(PARAM.placedAt));
  if (!callKey || !/^[0-9a-f]{8,64}$/.test(callKey) || remoteNumber === undefined || !Number.isSafeInteger(placedAt)) return undefined;
  return { callKey, remoteNumber: /^[0-9]{1,15}$/.test(remoteNumber) ? remoteNumber : '', placedAt };
};
