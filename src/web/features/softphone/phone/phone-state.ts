/** The browser phone's state as the dashboard shows it (its registration, its one call) and the words for it. */

export type Registration =
  | { status: 'off' }
  | { status: 'connecting' }
  | { status: 'ready' }
  | { status: 'reconnecting'; attempt: number }
  | { status: 'refused'; reason: string }
  /** It could not start: no credentials, or its code did not load. */
  | { status: 'failed'; reason: string };

/**
 * `ringing`: waiting for the agent's answer; `answering`: answered, media on its way; `calling`: a
 * click-to-call reaching the number; `talking`; `ended`: shown a moment, with why.
 */
export type CallPhase = 'ringing' | 'answering' | 'calling' | 'talking' | 'ended';

export interface PhoneCall {
  /** New whenever the call moves to another session (a click-to-call's REFER): what is keyed on the call starts afresh. */
  key: number;
  /** `incoming`: someone calls the agent; `click-to-call`: the agent's own call placed through the service. */
  kind: 'incoming' | 'click-to-call';
  phase: CallPhase;
  /** Digits, as the API writes numbers; empty when the caller withheld theirs. */
  remoteNumber: string;
  /** As the caller's phone system names them (the INVITE's display name). */
  remoteName?: string;
  /** When the parties were connected (epoch ms): the call's timer counts from it. */
  answeredAt?: number;
  muted: boolean;
  held: boolean;
  /** Why it ended, in words. */
  ending?: string;
  /** The other party's audio. */
  remoteTracks: readonly MediaStreamTrack[];
}

export interface PhoneState {
  registration: Registration;
  call?: PhoneCall;
  /** Something to know that has not stopped the phone yet (a renewal of its credentials that failed). */
  warning?: string;
}

export const PHONE_OFF: PhoneState = { registration: { status: 'off' } };

export const registrationText = (registration: Registration): string => {
  switch (registration.status) {
    case 'off':
      return 'Not connected';
    case 'connecting':
      return 'Connecting…';
    case 'ready':
      return 'Ready for calls';
    case 'reconnecting':
      return `Connection lost, reconnecting… (attempt ${registration.attempt})`;
    case 'refused':
      return `Registration refused: ${registration.reason}`;
    case 'failed':
      return `Not connected: ${registration.reason}`;
  }
};
