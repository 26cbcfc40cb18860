/**
 * JsSIP for tests, without a socket or WebRTC: user agents and sessions that note what the phone
 * asks of them, and that the test makes speak (`emit`) as JsSIP would. `loadFakeJsSIP` is the loader
 * the phone is given.
 */
import type { UAConfiguration } from 'jssip/lib/UA.js';
import type { JsSIPModule } from '../features/softphone/phone/phone.js';

type Listener = (event: never) => void;

class Emitter {
  private readonly listeners = new Map<string, Listener[]>();

  on(type: string, listener: Listener): this {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
    return this;
  }

  /** Says `type` to the phone, as JsSIP would. */
  emit(type: string, event: unknown = {}): void {
    for (const listener of this.listeners.get(type) ?? []) (listener as (event: unknown) => void)(event);
  }
}

export class FakeSocket {
  constructor(readonly url: string) {}
}

export class FakeUA extends Emitter {
  /** Every user agent made since the test began, newest last. */
  static made: FakeUA[] = [];
  started = false;
  stopped = false;
  registers = 0;
  connected = true;
  readonly settings: Record<string, unknown> = {};

  constructor(readonly config: UAConfiguration) {
    super();
    FakeUA.made.push(this);
  }

  start(): void {
    this.started = true;
  }

  stop(): void {
    this.stopped = true;
  }

  register(): void {
    this.registers += 1;
  }

  set(key: string, value: unknown): boolean {
    this.settings[key] = value;
    return true;
  }

  isConnected(): boolean {
    return this.connected;
  }

  /** A call comes in: an INVITE whose To URI carries `toParams` (a click-to-call leg's `callboard-remote`). */
  ring(session: FakeSession, toParams: Record<string, string> = {}): void {
    const request = { to: { uri: { getParam: (key: string) => toParams[key] }, getParam: () => undefined } };
    this.emit('newRTCSession', { originator: 'remote', session, request });
  }
}

export class FakeSession extends Emitter {
  answered: unknown[] = [];
  terminated: unknown[] = [];
  tones: string[] = [];
  holds: string[] = [];
  /** The peer connection, once there is one: its receivers hold the other party's audio. */
  connection: { getReceivers: () => { track: MediaStreamTrack }[]; addEventListener: () => void } | null = null;

  constructor(readonly remote_identity: { uri: { user: string }; display_name: string } = { uri: { user: '' }, display_name: '' }) {
    super();
  }

  answer(options: unknown): void {
    this.answered.push(options);
  }

  terminate(options?: unknown): void {
    this.terminated.push(options ?? {});
  }

  // JsSIP says muted and unmuted at once; hold waits for the re-INVITE, so the test says it.
  mute(options: unknown): void {
    this.emit('muted', options);
  }

  unmute(options: unknown): void {
    this.emit('unmuted', options);
  }

  hold(): void {
    this.holds.push('hold');
  }

  unhold(): void {
    this.holds.push('unhold');
  }

  sendDTMF(tone: string): void {
    this.tones.push(tone);
  }

  /** The other party's audio is there. */
  withAudio(track: MediaStreamTrack): this {
    this.connection = { getReceivers: () => [{ track }], addEventListener: () => undefined };
    return this;
  }
}

export const fakeJsSIP = { UA: FakeUA, WebSocketInterface: FakeSocket } as unknown as JsSIPModule;

export const loadFakeJsSIP = async (): Promise<JsSIPModule> => fakeJsSIP;

export const resetFakeJsSIP = (): void => {
  FakeUA.made = [];
};
