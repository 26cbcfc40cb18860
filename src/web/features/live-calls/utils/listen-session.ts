/**
 * A supervisor's silent listening to a call, over WebRTC and nothing else: the service's offer
 * (both parties' audio, send-only) is answered by one peer connection, the answer goes back once
 * ICE gathering is done (or a short wait is over), and stopping closes the connection and takes the
 * listener down at the service.
 */
import type { ListenOffer } from '../../../../contract/softphone.js';

/** What listening asks of the service: start (its offer), the browser's answer, stop. */
export interface ListenPort {
  start(): Promise<ListenOffer>;
  answer(listenID: string, sdp: string): Promise<void>;
  stop(listenID: string): Promise<void>;
}

export type ListenStatus = { state: 'connecting' } | { state: 'listening' } | { state: 'ended' } | { state: 'error'; error: unknown };

export interface ListenOptions {
  onStatus: (status: ListenStatus) => void;
  /** Each party's audio, as it arrives. */
  onTrack: (track: MediaStreamTrack) => void;
  createPeerConnection?: (config: RTCConfiguration) => RTCPeerConnection;
  /** The answer goes without the candidates still missing after this long (a TURN server that does not answer). */
  iceGatheringMs?: number;
}

export const ICE_GATHERING_MS = 3000;

const iceGathered = (connection: RTCPeerConnection, waitMs: number): Promise<void> =>
  new Promise((resolve) => {
    if (connection.iceGatheringState === 'complete') return resolve();
    const done = () => {
      clearTimeout(timer);
      connection.removeEventListener('icegatheringstatechange', check);
      resolve();
    };
    const check = () => {
      if (connection.iceGatheringState === 'complete') done();
    };
    const timer = setTimeout(done, waitMs);
    connection.addEventListener('icegatheringstatechange', check);
  });

/** Starts listening at once; the function returned stops it (any number of calls, one stop). */
export const startListening = (port: ListenPort, options: ListenOptions): (() => void) => {
  const { onStatus, onTrack, createPeerConnection = (config) => new RTCPeerConnection(config), iceGatheringMs = ICE_GATHERING_MS } = options;
  let stopped = false;
  let listenID: string | undefined;
  let connection: RTCPeerConnection | undefined;

  // Best effort: a listener left behind ends with its call at the latest.
  const takeDown = () => {
    connection?.close();
    if (listenID !== undefined) port.stop(listenID).catch(() => undefined);
  };

  const run = async () => {
    const offer = await port.start();
    listenID = offer.listenID;
    if (stopped) return takeDown();
    connection = createPeerConnection({ iceServers: offer.iceServers });
    connection.addEventListener('track', (event) => onTrack(event.track));
    connection.addEventListener('connectionstatechange', () => {
      if (connection?.connectionState === 'failed' && !stopped) fail(new Error('the audio connection to the phone system failed'));
    });
    await connection.setRemoteDescription({ type: 'offer', sdp: offer.sdp });
    await connection.setLocalDescription(await connection.createAnswer());
    await iceGathered(connection, iceGatheringMs);
    if (stopped) return;
    const sdp = connection.localDescription?.sdp;
    if (!sdp) throw new Error('this browser made no answer to the offer');
    await port.answer(listenID, sdp);
    if (!stopped) onStatus({ state: 'listening' });
  };

  const fail = (error: unknown) => {
    if (stopped) return;
    stopped = true;
    takeDown();
    onStatus({ state: 'error', error });
  };

  onStatus({ state: 'connecting' });
  run().catch(fail);

  return () => {
    if (stopped) return;
    stopped = true;
    takeDown();
    onStatus({ state: 'ended' });
  };
};
