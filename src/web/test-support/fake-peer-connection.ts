/**
 * An RTCPeerConnection for tests (jsdom has none): it keeps the descriptions it is given, answers
 * an offer with a fixed SDP, and gathers ICE candidates when the test says so (or at once).
 */
export const FAKE_ANSWER_SDP = 'v=0\r\no=- 1 1 IN IP4 127.0.0.1\r\ns=-\r\n';
export const FAKE_CANDIDATE = 'a=candidate:1 1 udp 2122260223 127.0.0.1 50000 typ host\r\n';

export class FakePeerConnection extends EventTarget {
  /** Every connection made since the test began, newest last. */
  static made: FakePeerConnection[] = [];
  /** Whether a new connection gathers its candidates as soon as it has its local description. */
  static gatherAtOnce = true;

  iceGatheringState: RTCIceGatheringState = 'new';
  connectionState: RTCPeerConnectionState = 'new';
  localDescription: RTCSessionDescriptionInit | null = null;
  remoteDescription: RTCSessionDescriptionInit | null = null;
  closed = false;

  constructor(readonly config: RTCConfiguration) {
    super();
    FakePeerConnection.made.push(this);
  }

  static reset(): void {
    FakePeerConnection.made = [];
    FakePeerConnection.gatherAtOnce = true;
  }

  async setRemoteDescription(description: RTCSessionDescriptionInit): Promise<void> {
    this.remoteDescription = description;
  }

  async createAnswer(): Promise<RTCSessionDescriptionInit> {
    return { type: 'answer', sdp: FAKE_ANSWER_SDP };
  }

  async setLocalDescription(description: RTCSessionDescriptionInit): Promise<void> {
    this.localDescription = description;
    this.iceGatheringState = 'gathering';
    if (FakePeerConnection.gatherAtOnce) this.finishGathering();
  }

  /** The candidates are in: the local description holds them. */
  finishGathering(): void {
    this.iceGatheringState = 'complete';
    this.localDescription = { type: 'answer', sdp: `${this.localDescription?.sdp ?? ''}${FAKE_CANDIDATE}` };
    this.dispatchEvent(new Event('icegatheringstatechange'));
  }

  /** A remote party's audio arrives. */
  addRemoteTrack(track: MediaStreamTrack): void {
    this.dispatchEvent(Object.assign(new Event('track'), { track }));
  }

  failConnection(): void {
    this.connectionState = 'failed';
    this.dispatchEvent(new Event('connectionstatechange'));
  }

  close(): void {
    this.closed = true;
  }
}

/** What `createPeerConnection` (or the global `RTCPeerConnection`) gives in a test. */
export const fakePeerConnection = (config: RTCConfiguration) => new FakePeerConnection(config) as unknown as RTCPeerConnection;
