/**
 * The ng client against Debian's rtpengine 10.5 in userspace: a plain RTP call set up as Kamailio
 * sets it up (offer, answer), then a silent listener forked off it for a WebRTC browser (`subscribe
 * request` of both parties, sendonly, ICE and DTLS-SRTP), and taken down (`unsubscribe`, `delete`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRtpengine, type RunningRtpengine } from '../../../../testbed/sip/rtpengine-process.js';
import { NgClient, RtpengineError, sdpOf, WEBRTC_LISTENER_FLAGS } from './ng-client.js';

const plainSdp = (port: number, session: string) =>
  ['v=0', `o=- ${session} 1 IN IP4 127.0.0.1`, 's=-', 'c=IN IP4 127.0.0.1', 't=0 0', `m=audio ${port} RTP/AVP 0 8`, 'a=rtpmap:0 PCMU/8000', 'a=rtpmap:8 PCMA/8000', 'a=sendrecv', ''].join('\r\n');

const audioPort = (sdp: string) => Number(/^m=audio (\d+) /m.exec(sdp)?.[1]);

describe('rtpengine ng protocol', () => {
  let rtpengine: RunningRtpengine;
  let ng: NgClient;

  beforeAll(async () => {
    rtpengine = await startRtpengine();
    ng = new NgClient({ host: '127.0.0.1', port: rtpengine.ngPort });
  });

  afterAll(async () => {
    ng?.close();
    await rtpengine?.stop();
  });

  it('answers a ping with pong', async () => {
    expect((await ng.request('ping')).result).toBe('pong');
  });

  it("sets up a call's media, forks it to a WebRTC listener, and takes the listener down", async () => {
    const callID = 'ng-test-call-1';
    const offer = sdpOf('offer', await ng.request('offer', { 'call-id': callID, 'from-tag': 'caller', sdp: plainSdp(40_000, '1') }));
    expect(audioPort(offer)).toBeGreaterThan(0);
    expect(audioPort(offer)).not.toBe(40_000);
    const answer = sdpOf('answer', await ng.request('answer', { 'call-id': callID, 'from-tag': 'caller', 'to-tag': 'callee', sdp: plainSdp(40_010, '2') }));
    expect(audioPort(answer)).toBeGreaterThan(0);

    const listen = await ng.request('subscribe request', { 'call-id': callID, flags: ['all', 'SIP-source-address'], ...WEBRTC_LISTENER_FLAGS });
    const listenerOffer = sdpOf('subscribe request', listen);
    expect(listenerOffer).toMatch(/^a=sendonly/m);
    expect(listenerOffer).toMatch(/UDP\/TLS\/RTP\/SAVPF/);
    expect(listenerOffer).toMatch(/^a=fingerprint:/m);
    expect(listenerOffer).toMatch(/^a=ice-ufrag:/m);
    // Both parties: one media section each.
    expect(listenerOffer.match(/^m=audio /gm)).toHaveLength(2);
    const listenerTag = listen['to-tag'];
    expect(typeof listenerTag).toBe('string');

    await ng.request('unsubscribe', { 'call-id': callID, 'to-tag': listenerTag as string });
    await ng.request('delete', { 'call-id': callID, 'from-tag': 'caller' });
  });

  it("says what rtpengine refused, naming the command", async () => {
    const refused = ng.request('subscribe request', { 'call-id': 'no-such-call', flags: ['all'] });
    await expect(refused).rejects.toBeInstanceOf(RtpengineError);
    await expect(refused).rejects.toThrow(/^rtpengine subscribe request: /);
  });

  it('gives up on a port nothing answers, saying so', async () => {
    const nobody = new NgClient({ host: '127.0.0.1', port: 9, attemptTimeoutMs: 50, attempts: 2 });
    await expect(nobody.ping()).rejects.toThrow('rtpengine ping: no answer from 127.0.0.1:9 after 2 attempts of 50 ms');
    nobody.close();
  });
});
