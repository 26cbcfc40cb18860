/**
 * The browser as the agent's phone: a JsSIP user agent registered with the service's time-limited
 * credentials (renewed before they expire), and the one call it holds, as a state the dashboard
 * reads. JsSIP comes from the loader it is given, so it is fetched only when the phone is turned on
 * and tests give a fake. A click-to-call rings the browser first: that leg is answered without a
 * ring when this page asked for the call, and the REFER the phone system then sends on it starts
 * the real call as a new session, which the phone follows as the call.
 */
import type { EndEvent, RTCSession, ReferEvent } from 'jssip/lib/RTCSession.js';
import type { RTCSessionEvent, UA, UAConfiguration } from 'jssip/lib/UA.js';
import type { WebSocketInterface } from 'jssip/lib/WebSocketInterface.js';
import type { SoftphoneCredentials } from '../../../../contract/softphone.js';
import { ApiError } from '../../../lib/api/api-error.js';
import { isLoadFailure } from '../../../lib/load-failure.js';
import { callerOf, clickToCallNumber } from './call-leg.js';
import { PHONE_OFF, type PhoneCall, type PhoneState, type Registration } from './phone-state.js';

/** What the phone takes of JsSIP. */
export interface JsSIPModule {
  UA: new (configuration: UAConfiguration) => UA;
  WebSocketInterface: new (url: string) => WebSocketInterface;
}

/** Where the phone's credentials come from: asked at each start and before they expire. */
export type CredentialSource = () => Promise<SoftphoneCredentials>;

export interface PhoneOptions {
  loadJsSIP: () => Promise<JsSIPModule>;
  /** Whether this page asked a moment ago to call the number: its first leg is then answered without a ring (once). */
  placedHere: (digits: string) => boolean;
  now?: () => number;
}

/** New credentials at this share of the time the current ones have left. */
export const RENEW_AT = 0.8;
/** Never sooner than this, whatever the clocks say: a browser clock far ahead must not make the phone ask without end. */
export const MIN_RENEW_MS = 30_000;
/** After a renewal failed, asked again this soon, while the current credentials may still work. */
export const RENEW_RETRY_MS = 30_000;
/** How long an ended call stays on screen, saying why it ended. */
export const ENDED_SHOWN_MS = 5_000;

const TONES = /^[0-9*#]$/;

const reasonOf = (error: unknown): string => {
  if (error instanceof ApiError) return error.detail;
  if (isLoadFailure(error)) return "the phone's code could not load; reload the page";
  return error instanceof Error ? error.message : String(error);
};

/** JsSIP's causes of a refused registration, in words; the SIP status follows where there is one. */
const refusalOf = (cause: string | undefined, response: { status_code: number; reason_phrase: string } | null | undefined): string => {
  const words =
    cause === 'Authentication Error'
      ? 'the phone system did not accept the credentials'
      : cause === 'Rejected'
        ? 'the phone system refused this phone'
        : cause === 'Request Timeout'
          ? 'the phone system did not answer'
          : (cause ?? 'unknown reason');
  return response ? `${words} (${response.status_code} ${response.reason_phrase})` : words;
};

/** Why a call ended, in words: who ended it and how. */
const endingOf = (call: PhoneCall, { originator, cause }: Pick<EndEvent, 'originator' | 'cause'>): string => {
  if (originator === 'local') return call.phase === 'ringing' ? 'Declined' : 'Call ended';
  switch (cause) {
    case 'Terminated':
      return 'The other party hung up';
    case 'Canceled':
      return call.phase === 'ringing' ? 'Missed: the caller hung up before you answered' : 'Call ended';
    case 'Busy':
      return 'The number is busy';
    case 'Rejected':
      return 'The call was refused';
    case 'No Answer':
      return 'No answer';
    case 'Unavailable':
    case 'Not Found':
    case 'Address Incomplete':
      return 'The number cannot be reached';
    case 'User Denied Media Access':
      return "The browser may not use the microphone: allow it in the site's settings";
    case 'Connection Error':
    case 'Request Timeout':
    case 'RTP Timeout':
    case 'Dialog Error':
      return 'The connection dropped';
    default:
      return `Call ended (${cause})`;
  }
};

const audioTracksOf = (session: RTCSession): MediaStreamTrack[] =>
  (session.connection?.getReceivers() ?? []).flatMap(({ track }) => (track.kind === 'audio' ? [track] : []));

export class Phone {
  private state: PhoneState = PHONE_OFF;
  private readonly listeners = new Set<() => void>();
  private readonly now: () => number;
  /** Each start and stop: what an earlier start still awaits finds it is no longer current. */
  private run = 0;
  private ua: UA | undefined;
  private credentials: SoftphoneCredentials | undefined;
  private fetchCredentials: CredentialSource | undefined;
  private renewTimer: ReturnType<typeof setTimeout> | undefined;
  private endedTimer: ReturnType<typeof setTimeout> | undefined;
  /** A refused registration was met with fresh credentials once (they may have expired while the computer slept). */
  private renewedForRefusal = false;
  private session: RTCSession | undefined;
  /** The session is the first leg of a click-to-call: its REFER is followed. */
  private sessionIsLeg = false;
  /** The chosen microphone (a device ID); the browser's default when undefined. */
  private microphone: string | undefined;
  /** A microphone chosen during a call: the phone stops it when the call ends, as JsSIP does its own. */
  private chosenTrack: MediaStreamTrack | undefined;
  private keys = 0;

  constructor(private readonly options: PhoneOptions) {
    this.now = options.now ?? Date.now;
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getState = (): PhoneState => this.state;

  /** Fetches JsSIP and the credentials, then registers; it keeps registered until `stop`. */
  start(fetchCredentials: CredentialSource): void {
    const run = ++this.run;
    this.fetchCredentials = fetchCredentials;
    this.update({ registration: { status: 'connecting' }, call: undefined, warning: undefined });
    Promise.all([this.options.loadJsSIP(), fetchCredentials()]).then(
      ([jssip, credentials]) => {
        if (run !== this.run) return;
        try {
          this.ua = this.userAgent(jssip, credentials);
          this.credentials = credentials;
          this.ua.start();
          this.renewBefore(credentials.expiresAt);
        } catch (error) {
          this.registration({ status: 'failed', reason: reasonOf(error) });
        }
      },
      (error: unknown) => {
        if (run === this.run) this.registration({ status: 'failed', reason: reasonOf(error) });
      },
    );
  }

  /** Unregisters and hangs up, if need be; the phone may start again. */
  stop(): void {
    this.run += 1;
    clearTimeout(this.renewTimer);
    clearTimeout(this.endedTimer);
    this.stopChosenTrack();
    const ua = this.ua;
    this.ua = undefined;
    this.session = undefined;
    this.renewedForRefusal = false;
    ua?.stop();
    this.update({ ...PHONE_OFF, call: undefined, warning: undefined });
  }

  answer(): void {
    const call = this.state.call;
    if (!this.session || call?.phase !== 'ringing') return;
    this.session.answer(this.answerOptions());
    this.updateCall({ phase: call.kind === 'click-to-call' ? 'calling' : 'answering' });
  }

  decline(): void {
    if (this.state.call?.phase === 'ringing') this.session?.terminate({ status_code: 486, reason_phrase: 'Busy Here' });
  }

  hangUp(): void {
    if (this.state.call && this.state.call.phase !== 'ended') this.session?.terminate();
  }

  setMuted(muted: boolean): void {
    if (muted) this.session?.mute({ audio: true });
    else this.session?.unmute({ audio: true });
  }

  setHeld(held: boolean): void {
    if (held) this.session?.hold();
    else this.session?.unhold();
  }

  sendTone(tone: string): void {
    if (TONES.test(tone) && this.state.call?.phase === 'talking') this.session?.sendDTMF(tone);
  }

  /** From the next call on, and at once on the call in progress. */
  setMicrophone(deviceID: string | undefined): void {
    this.microphone = deviceID;
    const session = this.session;
    if (session?.connection && this.state.call && this.state.call.phase !== 'ended' && this.state.call.phase !== 'ringing')
      void this.replaceMicrophone(session).catch(() => undefined);
  }

  private userAgent(jssip: JsSIPModule, credentials: SoftphoneCredentials): UA {
    const ua = new jssip.UA({
      sockets: [new jssip.WebSocketInterface(credentials.websocketURL)],
      uri: credentials.sipURI,
      authorization_user: credentials.authorizationUser,
      password: credentials.password,
      display_name: credentials.displayName,
      register: true,
      session_timers: false,
    });
    const mine = () => this.ua === ua;
    ua.on('connecting', ({ attempts }) => {
      if (!mine()) return;
      if (attempts > 0) this.registration({ status: 'reconnecting', attempt: attempts });
      else if (this.state.registration.status !== 'reconnecting') this.registration({ status: 'connecting' });
    });
    // JsSIP reconnects by itself and registers again once it has.
    ua.on('disconnected', () => {
      if (mine() && this.state.registration.status !== 'reconnecting') this.registration({ status: 'reconnecting', attempt: 1 });
    });
    ua.on('connected', () => {
      if (mine()) this.registration({ status: 'connecting' });
    });
    ua.on('registered', () => {
      if (!mine()) return;
      this.renewedForRefusal = false;
      this.registration({ status: 'ready' });
    });
    ua.on('unregistered', ({ cause }) => {
      if (!mine()) return;
      const { status } = this.state.registration;
      // After a dropped connection, or a refusal: those say more.
      if (status !== 'reconnecting' && status !== 'refused') this.registration({ status: 'refused', reason: refusalOf(cause ?? 'the phone system ended the registration', null) });
    });
    ua.on('registrationFailed', ({ cause, response }) => {
      if (!mine() || this.state.registration.status === 'reconnecting') return;
      this.registration({ status: 'refused', reason: refusalOf(cause, response) });
      if (cause === 'Authentication Error' && !this.renewedForRefusal) {
        this.renewedForRefusal = true;
        void this.renew();
      }
    });
    ua.on('newRTCSession', (event: RTCSessionEvent) => {
      if (mine() && event.originator === 'remote') this.incoming(event.session, clickToCallNumber(event.request));
    });
    return ua;
  }

  private renewBefore(expiresAt: string): void {
    clearTimeout(this.renewTimer);
    const left = Date.parse(expiresAt) - this.now();
    this.renewTimer = setTimeout(() => void this.renew(), Math.max(MIN_RENEW_MS, left * RENEW_AT));
  }

  /** Fresh credentials, registered with at once; the socket and the call in progress stay. */
  private async renew(): Promise<void> {
    const run = this.run;
    const fetchCredentials = this.fetchCredentials;
    clearTimeout(this.renewTimer);
    if (!fetchCredentials) return;
    try {
      const credentials = await fetchCredentials();
      const ua = this.ua;
      if (run !== this.run || !ua) return;
      this.credentials = credentials;
      ua.set('authorization_user', credentials.authorizationUser);
      ua.set('password', credentials.password);
      ua.set('display_name', credentials.displayName);
      // Without a connection JsSIP registers with these once it has one again.
      if (ua.isConnected()) ua.register();
      this.update({ warning: undefined });
      this.renewBefore(credentials.expiresAt);
    } catch (error) {
      if (run !== this.run) return;
      this.update({ warning: `The phone's credentials could not be renewed (${reasonOf(error)}); trying again.` });
      this.renewTimer = setTimeout(() => void this.renew(), RENEW_RETRY_MS);
    }
  }

  private incoming(session: RTCSession, legNumber: string | undefined): void {
    // One call at a time: a second caller hears busy, and their phone system may try someone else.
    if (this.state.call && this.state.call.phase !== 'ended') {
      session.terminate({ status_code: 486, reason_phrase: 'Busy Here' });
      return;
    }
    const answerNow = legNumber !== undefined && this.options.placedHere(legNumber);
    this.follow(
      session,
      {
        kind: legNumber === undefined ? 'incoming' : 'click-to-call',
        phase: answerNow ? 'calling' : 'ringing',
        ...(legNumber === undefined ? callerOf(session.remote_identity) : { remoteNumber: legNumber }),
      },
      legNumber !== undefined,
    );
    if (answerNow) session.answer(this.answerOptions());
  }

  /** Makes `session` the call (`leg`: a click-to-call's first leg): its events move the call's state, until another session takes over or it ends. */
  private follow(session: RTCSession, call: Pick<PhoneCall, 'kind' | 'phase' | 'remoteNumber' | 'remoteName'>, leg: boolean): void {
    clearTimeout(this.endedTimer);
    this.stopChosenTrack();
    this.session = session;
    this.sessionIsLeg = leg;
    this.keys += 1;
    this.update({ call: { key: this.keys, muted: false, held: false, remoteTracks: [], ...call } });
    const current = () => this.session === session;
    const readTracks = () => {
      if (current()) this.updateCall({ remoteTracks: audioTracksOf(session) });
    };
    const watch = (connection: RTCPeerConnection) => connection.addEventListener('track', readTracks);
    if (session.connection) watch(session.connection);
    session.on('peerconnection', ({ peerconnection }) => watch(peerconnection));
    session.on('accepted', () => {
      if (!current()) return;
      readTracks();
      // A click-to-call's first leg only connects the agent: the call begins with the session its REFER starts.
      if (!this.sessionIsLeg) this.updateCall({ phase: 'talking', answeredAt: this.now() });
    });
    session.on('muted', () => current() && this.updateCall({ muted: true }));
    session.on('unmuted', () => current() && this.updateCall({ muted: false }));
    session.on('hold', ({ originator }) => current() && originator === 'local' && this.updateCall({ held: true }));
    session.on('unhold', ({ originator }) => current() && originator === 'local' && this.updateCall({ held: false }));
    session.on('refer', (event: ReferEvent) => this.referred(session, event));
    const ended = (event: EndEvent) => {
      if (current()) this.ended(event);
    };
    session.on('ended', ended);
    session.on('failed', ended);
  }

  /** The phone system moves the agent's click-to-call leg to the number: the new session becomes the call. */
  private referred(session: RTCSession, event: ReferEvent): void {
    const call = this.state.call;
    if (this.session !== session || !this.sessionIsLeg || !call) {
      event.reject();
      return;
    }
    event.accept((next: RTCSession) => this.follow(next, { kind: 'click-to-call', phase: 'calling', remoteNumber: call.remoteNumber }, false), this.answerOptions());
  }

  private ended(event: EndEvent): void {
    const call = this.state.call;
    this.session = undefined;
    this.stopChosenTrack();
    if (!call) return;
    this.update({ call: { ...call, phase: 'ended', ending: endingOf(call, event), remoteTracks: [] } });
    this.endedTimer = setTimeout(() => this.update({ call: undefined }), ENDED_SHOWN_MS);
  }

  private answerOptions() {
    return {
      mediaConstraints: { audio: this.microphone ? { deviceId: { exact: this.microphone } } : true, video: false },
      pcConfig: { iceServers: this.credentials?.iceServers ?? [] },
    };
  }

  private async replaceMicrophone(session: RTCSession): Promise<void> {
    const stream = await navigator.mediaDevices.getUserMedia({ audio: this.microphone ? { deviceId: { exact: this.microphone } } : true });
    const [track] = stream.getAudioTracks();
    const sender = session.connection.getSenders().find((candidate) => candidate.track?.kind === 'audio');
    if (!track || !sender || this.session !== session) {
      for (const unused of stream.getTracks()) unused.stop();
      return;
    }
    track.enabled = !this.state.call?.muted;
    const before = sender.track;
    await sender.replaceTrack(track);
    before?.stop();
    // JsSIP stops the microphone it opened when the call ends; one chosen since is the phone's to stop.
    this.chosenTrack = track;
  }

  private stopChosenTrack(): void {
    this.chosenTrack?.stop();
    this.chosenTrack = undefined;
  }

  private registration(registration: Registration): void {
    this.update({ registration });
  }

  private updateCall(change: Partial<PhoneCall>): void {
    const call = this.state.call;
    if (call) this.update({ call: { ...call, ...change } });
  }

  private update(change: Partial<PhoneState>): void {
    this.state = { ...this.state, ...change };
    for (const listener of this.listeners) listener();
  }
}
