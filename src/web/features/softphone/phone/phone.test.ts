import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SoftphoneCredentials } from '../../../../contract/softphone.js';
import { ApiError } from '../../../lib/api/api-error.js';
import { FakeSession, FakeUA, loadFakeJsSIP, resetFakeJsSIP } from '../../../test-support/fake-jssip.js';
import { ENDED_SHOWN_MS, Phone, RENEW_RETRY_MS } from './phone.js';
import { registrationText } from './phone-state.js';

const START = Date.parse('2026-11-22T09:00:00.000Z');
const MINUTE = 60_000;

const credentials = (n: number, expiresInMs = 10 * MINUTE): SoftphoneCredentials => ({
  websocketURL: 'wss://pbx.example.com/ws',
  sipURI: 'sip:1001@pbx.example.com',
  authorizationUser: `${n}:1001`,
  password: `secret-${n}`,
  displayName: 'Maya Chen',
  expiresAt: new Date(Date.now() + expiresInMs).toISOString(),
  iceServers: [{ urls: 'stun:127.0.0.1:3478' }],
});

/** A phone with the fake JsSIP, started: its user agent, its state in words, and the credentials it asked for. */
const startPhone = async (options: { placed?: string[]; fetch?: () => Promise<SoftphoneCredentials> } = {}) => {
  let asked = 0;
  const fetchCredentials = vi.fn(options.fetch ?? (async () => credentials(++asked)));
  const placed = new Set(options.placed);
  const phone = new Phone({ loadJsSIP: loadFakeJsSIP, placedHere: (digits) => placed.delete(digits) });
  phone.start(fetchCredentials);
  await vi.advanceTimersByTimeAsync(0);
  const ua = FakeUA.made.at(-1) as FakeUA;
  return { phone, ua, fetchCredentials, words: () => registrationText(phone.getState().registration), call: () => phone.getState().call };
};

/** Started and registered. */
const readyPhone = async (options: Parameters<typeof startPhone>[0] = {}) => {
  const started = await startPhone(options);
  started.ua.emit('connected');
  started.ua.emit('registered');
  return started;
};

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(START);
});

afterEach(() => {
  vi.useRealTimers();
  resetFakeJsSIP();
});

describe('the browser phone registering', () => {
  it('registers with the credentials as JsSIP takes them, and says each step in words', async () => {
    const { ua, words, phone } = await startPhone();
    expect(ua.config).toMatchObject({
      uri: 'sip:1001@pbx.example.com',
      authorization_user: '1:1001',
      password: 'secret-1',
      display_name: 'Maya Chen',
      register: true,
      session_timers: false,
    });
    expect(ua.config.sockets).toEqual([{ url: 'wss://pbx.example.com/ws' }]);
    expect(ua.started).toBe(true);
    expect(words()).toBe('Connecting…');
    ua.emit('connecting', { attempts: 0 });
    ua.emit('connected');
    expect(words()).toBe('Connecting…');
    ua.emit('registered');
    expect(words()).toBe('Ready for calls');
    phone.stop();
    expect(ua.stopped).toBe(true);
    expect(words()).toBe('Not connected');
  });

  it('says it reconnects after the connection drops, attempt by attempt, and is ready again once registered', async () => {
    const { ua, words } = await readyPhone();
    ua.emit('disconnected', { error: true });
    expect(words()).toBe('Connection lost, reconnecting… (attempt 1)');
    ua.emit('unregistered', {});
    expect(words()).toBe('Connection lost, reconnecting… (attempt 1)');
    ua.emit('connecting', { attempts: 1 });
    ua.emit('disconnected', { error: true });
    ua.emit('connecting', { attempts: 2 });
    expect(words()).toBe('Connection lost, reconnecting… (attempt 2)');
    ua.emit('connected');
    expect(words()).toBe('Connecting…');
    ua.emit('registered');
    expect(words()).toBe('Ready for calls');
  });

  it('says why a registration is refused, and tries fresh credentials once when the old ones are not accepted', async () => {
    const { ua, words, fetchCredentials } = await readyPhone();
    ua.emit('registrationFailed', { cause: 'Rejected', response: { status_code: 403, reason_phrase: 'Forbidden' } });
    expect(words()).toBe('Registration refused: the phone system refused this phone (403 Forbidden)');
    expect(fetchCredentials).toHaveBeenCalledTimes(1);

    ua.emit('registrationFailed', { cause: 'Authentication Error', response: { status_code: 401, reason_phrase: 'Unauthorized' } });
    expect(words()).toBe('Registration refused: the phone system did not accept the credentials (401 Unauthorized)');
    await vi.advanceTimersByTimeAsync(0);
    expect(fetchCredentials).toHaveBeenCalledTimes(2);
    expect(ua.settings).toMatchObject({ authorization_user: '2:1001', password: 'secret-2' });
    expect(ua.registers).toBe(1);
    ua.emit('registrationFailed', { cause: 'Authentication Error', response: { status_code: 401, reason_phrase: 'Unauthorized' } });
    await vi.advanceTimersByTimeAsync(0);
    expect(fetchCredentials).toHaveBeenCalledTimes(2);
  });

  it("says why it cannot start, in the service's words", async () => {
    const refusal = new ApiError('subscriber_not_allowed', 'You place calls only as subscriber "1001".', 403);
    const { words } = await startPhone({ fetch: () => Promise.reject(refusal) });
    expect(words()).toBe('Not connected: You place calls only as subscriber "1001".');
    expect(FakeUA.made).toEqual([]);
  });

  it('asks for new credentials at 80 % of their time and registers with them, and asks again soon after a failure', async () => {
    const { ua, fetchCredentials, phone } = await readyPhone();
    await vi.advanceTimersByTimeAsync(8 * MINUTE - 1);
    expect(fetchCredentials).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetchCredentials).toHaveBeenCalledTimes(2);
    expect(ua.settings).toMatchObject({ authorization_user: '2:1001', password: 'secret-2', display_name: 'Maya Chen' });
    expect(ua.registers).toBe(1);
    expect(FakeUA.made).toHaveLength(1);

    fetchCredentials.mockRejectedValueOnce(new ApiError('service_busy', 'The service is busy.', 503));
    await vi.advanceTimersByTimeAsync(8 * MINUTE);
    expect(fetchCredentials).toHaveBeenCalledTimes(3);
    expect(phone.getState().warning).toBe("The phone's credentials could not be renewed (The service is busy.); trying again.");
    await vi.advanceTimersByTimeAsync(RENEW_RETRY_MS);
    expect(fetchCredentials).toHaveBeenCalledTimes(4);
    expect(phone.getState().warning).toBeUndefined();
    expect(ua.registers).toBe(2);
  });
});

describe('calls on the browser phone', () => {
  const caller = () => new FakeSession({ uri: { user: '+15555550100' }, display_name: 'Globex Corp' });

  it('rings with the caller, answers with the microphone and ICE servers, and times the call from the answer', async () => {
    const { ua, phone, call } = await readyPhone();
    const session = caller().withAudio({ id: 'remote', kind: 'audio' } as MediaStreamTrack);
    ua.ring(session);
    expect(call()).toMatchObject({ kind: 'incoming', phase: 'ringing', remoteNumber: '15555550100', remoteName: 'Globex Corp' });

    phone.setMicrophone('headset');
    phone.answer();
    expect(session.answered).toEqual([
      { mediaConstraints: { audio: { deviceId: { exact: 'headset' } }, video: false }, pcConfig: { iceServers: [{ urls: 'stun:127.0.0.1:3478' }] } },
    ]);
    expect(call()?.phase).toBe('answering');
    await vi.advanceTimersByTimeAsync(2000);
    session.emit('accepted', { originator: 'local' });
    expect(call()).toMatchObject({ phase: 'talking', answeredAt: START + 2000 });
    expect(call()?.remoteTracks.map((track) => track.id)).toEqual(['remote']);

    session.emit('ended', { originator: 'remote', cause: 'Terminated' });
    expect(call()).toMatchObject({ phase: 'ended', ending: 'The other party hung up', remoteTracks: [] });
    await vi.advanceTimersByTimeAsync(ENDED_SHOWN_MS);
    expect(call()).toBeUndefined();
  });

  it('declines with busy, says a missed call, and answers a second caller busy during a call', async () => {
    const { ua, phone, call } = await readyPhone();
    const first = caller();
    ua.ring(first);
    phone.decline();
    expect(first.terminated).toEqual([{ status_code: 486, reason_phrase: 'Busy Here' }]);
    first.emit('failed', { originator: 'local', cause: 'Rejected' });
    expect(call()?.ending).toBe('Declined');

    const second = caller();
    ua.ring(second);
    second.emit('failed', { originator: 'remote', cause: 'Canceled' });
    expect(call()?.ending).toBe('Missed: the caller hung up before you answered');

    const third = caller();
    ua.ring(third);
    phone.answer();
    third.emit('accepted', {});
    const fourth = caller();
    ua.ring(fourth);
    expect(fourth.terminated).toEqual([{ status_code: 486, reason_phrase: 'Busy Here' }]);
    expect(call()?.phase).toBe('talking');
  });

  it("answers the first leg of a click-to-call asked for here by itself, then follows the REFER's new session as the call", async () => {
    const { ua, call } = await readyPhone({ placed: ['4420794609580'] });
    const leg = new FakeSession({ uri: { user: 'callboard' }, display_name: '' });
    ua.ring(leg, { 'callboard-remote': '4420794609580', 'callboard-call': '9f2c' });
    expect(leg.answered).toHaveLength(1);
    expect(call()).toMatchObject({ kind: 'click-to-call', phase: 'calling', remoteNumber: '4420794609580' });
    leg.emit('accepted', {});
    expect(call()?.phase).toBe('calling');
    const legKey = call()?.key;

    const real = new FakeSession();
    const accept = vi.fn((init: (session: FakeSession) => void, _options: unknown) => init(real));
    leg.emit('refer', { accept, reject: vi.fn() });
    expect(accept.mock.calls[0]?.[1]).toEqual({ mediaConstraints: { audio: true, video: false }, pcConfig: { iceServers: [{ urls: 'stun:127.0.0.1:3478' }] } });
    expect(call()).toMatchObject({ kind: 'click-to-call', phase: 'calling', remoteNumber: '4420794609580' });
    expect(call()?.key).not.toBe(legKey);

    leg.emit('ended', { originator: 'remote', cause: 'Terminated' });
    expect(call()?.phase).toBe('calling');
    real.emit('accepted', {});
    expect(call()?.phase).toBe('talking');
    real.emit('ended', { originator: 'remote', cause: 'Terminated' });
    expect(call()?.phase).toBe('ended');
  });

  it('rings for a click-to-call leg this page did not ask for, and refuses a REFER on an ordinary call', async () => {
    const { ua, call, phone } = await readyPhone();
    const leg = new FakeSession();
    ua.ring(leg, { 'callboard-remote': '15555550100' });
    expect(leg.answered).toEqual([]);
    expect(call()).toMatchObject({ kind: 'click-to-call', phase: 'ringing', remoteNumber: '15555550100' });
    phone.answer();
    expect(call()?.phase).toBe('calling');
    leg.emit('ended', { originator: 'remote', cause: 'Terminated' });
    await vi.advanceTimersByTimeAsync(ENDED_SHOWN_MS);

    const incoming = new FakeSession({ uri: { user: '15555550100' }, display_name: '' });
    ua.ring(incoming);
    phone.answer();
    incoming.emit('accepted', {});
    const reject = vi.fn();
    incoming.emit('refer', { accept: vi.fn(), reject });
    expect(reject).toHaveBeenCalled();
  });

  it('passes mute, hold and the keypad to the call, and shows what the call says back', async () => {
    const { ua, phone, call } = await readyPhone();
    const session = caller();
    ua.ring(session);
    phone.sendTone('1');
    expect(session.tones).toEqual([]);
    phone.answer();
    session.emit('accepted', {});

    phone.setMuted(true);
    expect(call()?.muted).toBe(true);
    phone.setMuted(false);
    expect(call()?.muted).toBe(false);

    phone.setHeld(true);
    expect(session.holds).toEqual(['hold']);
    session.emit('hold', { originator: 'local' });
    expect(call()?.held).toBe(true);
    session.emit('unhold', { originator: 'remote' });
    expect(call()?.held).toBe(true);
    phone.setHeld(false);
    session.emit('unhold', { originator: 'local' });
    expect(session.holds).toEqual(['hold', 'unhold']);
    expect(call()?.held).toBe(false);

    for (const tone of ['5', '*', '#', 'x', '12']) phone.sendTone(tone);
    expect(session.tones).toEqual(['5', '*', '#']);

    phone.hangUp();
    expect(session.terminated).toEqual([{}]);
  });

  it('hangs up when stopped, and hears nothing more of that user agent', async () => {
    const { ua, phone, call, words } = await readyPhone();
    ua.ring(caller());
    phone.stop();
    expect(ua.stopped).toBe(true);
    expect(call()).toBeUndefined();
    ua.emit('registered');
    ua.ring(caller());
    expect(words()).toBe('Not connected');
    expect(call()).toBeUndefined();
  });
});
