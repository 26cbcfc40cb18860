import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ListenOffer } from '../../../../contract/softphone.js';
import { ApiError } from '../../../lib/api/api-error.js';
import { FAKE_ANSWER_SDP, FAKE_CANDIDATE, FakePeerConnection, fakePeerConnection } from '../../../test-support/fake-peer-connection.js';
import { startListening, type ListenPort, type ListenStatus } from './listen-session.js';

const OFFER: ListenOffer = {
  listenID: 'l-1',
  callID: 'c-1',
  sdp: 'v=0\r\no=rtpengine 1 1 IN IP4 127.0.0.1\r\n',
  iceServers: [{ urls: 'turn:127.0.0.1:3478', username: 'u', credential: 'p' }],
};

const fakePort = (start: () => Promise<ListenOffer> = async () => OFFER) => ({
  start: vi.fn(start),
  answer: vi.fn(async (_listenID: string, _sdp: string) => undefined),
  stop: vi.fn(async (_listenID: string) => undefined),
});

const listen = (port: ListenPort, iceGatheringMs?: number) => {
  const states: ListenStatus[] = [];
  const tracks: MediaStreamTrack[] = [];
  const stop = startListening(port, {
    onStatus: (status) => states.push(status),
    onTrack: (track) => tracks.push(track),
    createPeerConnection: fakePeerConnection,
    ...(iceGatheringMs === undefined ? {} : { iceGatheringMs }),
  });
  return { stop, states, tracks, words: () => states.map((status) => status.state) };
};

const connection = () => FakePeerConnection.made.at(-1) as FakePeerConnection;

afterEach(() => FakePeerConnection.reset());

describe('startListening', () => {
  it("answers the service's offer once ICE gathering is done, plays what arrives, and takes the listener down on stop", async () => {
    FakePeerConnection.gatherAtOnce = false;
    const port = fakePort();
    const session = listen(port);
    await vi.waitFor(() => expect(connection()?.iceGatheringState).toBe('gathering'));
    expect(connection().config).toEqual({ iceServers: OFFER.iceServers });
    expect(connection().remoteDescription).toEqual({ type: 'offer', sdp: OFFER.sdp });
    expect(port.answer).not.toHaveBeenCalled();

    connection().finishGathering();
    await vi.waitFor(() => expect(session.words()).toEqual(['connecting', 'listening']));
    expect(port.answer).toHaveBeenCalledWith('l-1', FAKE_ANSWER_SDP + FAKE_CANDIDATE);

    const track = { id: 'caller', kind: 'audio' } as MediaStreamTrack;
    connection().addRemoteTrack(track);
    expect(session.tracks).toEqual([track]);

    session.stop();
    session.stop();
    expect(connection().closed).toBe(true);
    expect(port.stop.mock.calls).toEqual([['l-1']]);
    expect(session.words()).toEqual(['connecting', 'listening', 'ended']);
  });

  it('sends the answer with the candidates it has when gathering does not finish in time', async () => {
    FakePeerConnection.gatherAtOnce = false;
    const port = fakePort();
    const session = listen(port, 20);
    await vi.waitFor(() => expect(session.words()).toEqual(['connecting', 'listening']));
    expect(port.answer).toHaveBeenCalledWith('l-1', FAKE_ANSWER_SDP);
  });

  it('takes down a listener whose offer comes after a stop, without ever answering it', async () => {
    let give!: (offer: ListenOffer) => void;
    const port = fakePort(() => new Promise((resolve) => (give = resolve)));
    const session = listen(port);
    session.stop();
    give(OFFER);
    await vi.waitFor(() => expect(port.stop).toHaveBeenCalledWith('l-1'));
    expect(FakePeerConnection.made).toEqual([]);
    expect(port.answer).not.toHaveBeenCalled();
    expect(session.words()).toEqual(['connecting', 'ended']);
  });

  it("says why when the service refuses, and takes down a listener whose answer it refused", async () => {
    const refusal = new ApiError('http_error', 'Grace Hopper is listening to this call already.', 409);
    const refused = listen(fakePort(() => Promise.reject(refusal)));
    await vi.waitFor(() => expect(refused.states.at(-1)).toEqual({ state: 'error', error: refusal }));

    const port = fakePort();
    port.answer.mockRejectedValueOnce(new ApiError('call_ended', 'The call has ended.', 409));
    const late = listen(port);
    await vi.waitFor(() => expect(late.words()).toEqual(['connecting', 'error']));
    expect(port.stop).toHaveBeenCalledWith('l-1');
    expect(connection().closed).toBe(true);
  });

  it('stops with an error when the audio connection fails', async () => {
    const port = fakePort();
    const session = listen(port);
    await vi.waitFor(() => expect(session.words()).toEqual(['connecting', 'listening']));
    connection().failConnection();
    expect(session.words()).toEqual(['connecting', 'listening', 'error']);
    expect(port.stop).toHaveBeenCalledWith('l-1');
  });
});
