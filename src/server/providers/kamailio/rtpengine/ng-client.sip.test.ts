/**
 * The ng client against Debian's rtpengine 10.5 in userspace: a plain RTP call set up as Kamailio
 * sets it up (offer, answer), then a silent listener forked off it for a WebRTC browser (`subscribe
 * request` of both parties, sendonly, ICE and DTLS-SRTP), and taken down (`unsubscribe`, `delete`).
 */
import { createSocket, type Socket } from 'node:dgram';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRtpengine, type RunningRtpengine } from '../../../../testbed/sip/rtpengine-process.js';
import { NgClient, RtpengineError, sdpOf, WEBRTC_LISTENER_FLAGS } from './ng-client.js';

const plainSdp = (port: number, session: string) =>
  ['v=0', `o=- ${session} 1 IN IP4 127.0.0.1`, 's=-', 'c=IN IP4 127.0.0.1', 't=0 0', `m=audio ${port} RTP/AVP 0 8`, 'a=rtpmap:0 PCMU/8000', 'a=rtpmap:8 PCMA/8000', 'a=sendrecv', ''].join('\r\n');

const audioPort = (sdp: string) => Number(/^m=audio (\d+) /m.exec(sdp)?.[1]);
const audioPorts = (sdp: string) => [...sdp.matchAll(/^m=audio (\d+) /gm)].map((match) => Number(match[1]));

/** A UDP socket on 127.0.0.1 that counts the RTP packets it receives. */
const rtpEndpoint = async () => {
  const socket: Socket = createSocket('udp4');
  let received = 0;
  socket.on('message', () => (received += 1));
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return { socket, port: socket.address().port, received: () => received };
};

/** A PCMU packet of 20 ms: version 2, payload type 0. */
const rtpPacket = (ssrc: number, sequence: number) => {
  const packet = Buffer.alloc(12 + 160, 0xff);
  packet.writeUInt8(0x80, 0);
  packet.writeUInt8(0, 1);
  packet.writeUInt16BE(sequence & 0xffff, 2);
  packet.writeUInt32BE(sequence * 160, 4);
  packet.writeUInt32BE(ssrc, 8);
  return packet;
};

/**
 * A listener's SDP answer with one receiving port per media section of the offer, taking every codec
 * offered: rtpengine 10.5 refuses an answer that leaves one of the call's codecs out.
 */
const listenerAnswer = (offer: string, ports: number[]) => {
  const sections = offer.split(/\r\n(?=m=)/);
  const session = ['v=0', 'o=- 9 1 IN IP4 127.0.0.1', 's=-', 'c=IN IP4 127.0.0.1', 't=0 0'];
  const media = sections.slice(1).flatMap((section, i) => {
    const mid = /^a=mid:(\S+)/m.exec(section)?.[1];
    const formats = /^m=audio \d+ \S+ (.*)$/m.exec(section)?.[1] ?? '';
    return [`m=audio ${ports[i]} RTP/AVP ${formats}`, ...section.split('\r\n').filter((line) => line.startsWith('a=rtpmap:')), 'a=recvonly', ...(mid ? [`a=mid:${mid}`] : [])];
  });
  return [...session, ...media, ''].join('\r\n');
};

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

  it('forks the media of both parties to two listeners at once, each receiving both', async () => {
    const callID = 'ng-test-call-2';
    const caller = await rtpEndpoint();
    const callee = await rtpEndpoint();
    const offer = sdpOf('offer', await ng.request('offer', { 'call-id': callID, 'from-tag': 'caller', sdp: plainSdp(caller.port, '1') }));
    const answer = sdpOf('answer', await ng.request('answer', { 'call-id': callID, 'from-tag': 'caller', 'to-tag': 'callee', sdp: plainSdp(callee.port, '2') }));
    const listeners = [];
    for (const name of ['first', 'second']) {
      const request = await ng.request('subscribe request', { 'call-id': callID, flags: ['all'], 'transport-protocol': 'RTP/AVP' });
      const listenerOffer = sdpOf('subscribe request', request);
      const ends = [await rtpEndpoint(), await rtpEndpoint()];
      expect(audioPorts(listenerOffer), name).toHaveLength(2);
      await ng.request('subscribe answer', { 'call-id': callID, 'to-tag': request['to-tag'] as string, sdp: listenerAnswer(listenerOffer, ends.map((end) => end.port)) });
      listeners.push({ name, tag: request['to-tag'] as string, ends });
    }
    // 50 packets each way, as two phones talking for a second.
    for (let sequence = 1; sequence <= 50; sequence += 1) {
      caller.socket.send(rtpPacket(1111, sequence), audioPort(answer), '127.0.0.1');
      callee.socket.send(rtpPacket(2222, sequence), audioPort(offer), '127.0.0.1');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(callee.received()).toBeGreaterThan(40);
    expect(caller.received()).toBeGreaterThan(40);
    const heard = listeners.map((listener) => ({ name: listener.name, packets: listener.ends.map((end) => end.received()) }));
    for (const listener of heard) for (const packets of listener.packets) expect(packets, JSON.stringify(heard)).toBeGreaterThan(40);
    for (const listener of listeners) await ng.request('unsubscribe', { 'call-id': callID, 'to-tag': listener.tag });
    await ng.request('delete', { 'call-id': callID, 'from-tag': 'caller' });
    for (const end of [caller, callee, ...listeners.flatMap((listener) => listener.ends)]) end.socket.close();
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
