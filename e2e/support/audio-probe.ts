/**
 * Listens to what a page receives over WebRTC: every RTCPeerConnection the page makes is kept (an
 * init script wraps the constructor), and the probe measures, per received audio track, its RTP
 * packets and the power of given frequencies over a stretch of time (an AnalyserNode's spectrum).
 */
import type { Page } from '@playwright/test';

/** Run before the page's own scripts: keeps each peer connection the page makes, in order. */
export const AUDIO_PROBE_INIT = `(() => {
  const Native = window.RTCPeerConnection;
  const made = [];
  window.__peerConnections = made;
  window.RTCPeerConnection = class extends Native {
    constructor(...args) {
      super(...args);
      made.push(this);
    }
  };
})();`;

export interface HeardTrack {
  /** RTP packets received on the track so far. */
  packets: number;
  /** Decibels at each asked frequency, from the spectrum averaged over the stretch. */
  levels: Record<number, number>;
  /** The strongest of the asked frequencies. */
  strongest: number;
  /** Its transport's ICE and DTLS states, e.g. `connected/connected`. */
  connection: string;
}

export interface PeerHeard {
  tracks: HeardTrack[];
  /** RTP packets this peer connection sent (a silent listener sends none). */
  packetsSent: number;
}

/**
 * What the newest peer connection (or the one at `index`) has received: each of its audio tracks,
 * measured over `ms` milliseconds.
 */
export const hear = (page: Page, frequencies: number[], { ms = 1500, index = -1 } = {}): Promise<PeerHeard> =>
  page.evaluate(
    async ({ frequencies, ms, index }) => {
      const made = (window as unknown as { __peerConnections: RTCPeerConnection[] }).__peerConnections;
      const pc = made.at(index);
      if (!pc) throw new Error(`no peer connection at ${index} (the page made ${made.length})`);
      const context = new AudioContext();
      const receivers = pc.getReceivers().filter((receiver) => receiver.track.kind === 'audio' && receiver.track.readyState === 'live');
      const analysers = receivers.map((receiver) => {
        const stream = new MediaStream([receiver.track]);
        // Chromium feeds a remote WebRTC track to Web Audio only while a media element plays it too.
        const element = new Audio();
        element.muted = true;
        element.srcObject = stream;
        void element.play().catch(() => undefined);
        const analyser = context.createAnalyser();
        analyser.fftSize = 8192;
        context.createMediaStreamSource(stream).connect(analyser);
        return { analyser, sums: new Float64Array(analyser.frequencyBinCount), frames: 0, element };
      });
      const deadline = performance.now() + ms;
      while (performance.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        for (const probe of analysers) {
          const spectrum = new Float32Array(probe.analyser.frequencyBinCount);
          probe.analyser.getFloatFrequencyData(spectrum);
          spectrum.forEach((decibels, bin) => (probe.sums[bin] = (probe.sums[bin] ?? 0) + Math.pow(10, decibels / 10)));
          probe.frames += 1;
        }
      }
      type Report = { type: string; packetsReceived?: number; packetsSent?: number };
      const received = await Promise.all(
        receivers.map(async (receiver) => {
          let packets = 0;
          (await receiver.getStats()).forEach((report: Report) => {
            if (report.type === 'inbound-rtp') packets += report.packetsReceived ?? 0;
          });
          return packets;
        }),
      );
      let packetsSent = 0;
      (await pc.getStats()).forEach((report: Report) => {
        if (report.type === 'outbound-rtp') packetsSent += report.packetsSent ?? 0;
      });
      const binOf = (hz: number) => Math.round((hz * 8192) / context.sampleRate);
      const tracks = analysers.map((probe, i) => {
        const levels = Object.fromEntries(
          frequencies.map((hz) => {
            // The strongest bin within 10 Hz: the tone may fall between bins.
            const centre = binOf(hz);
            let power = 0;
            for (let bin = centre - 2; bin <= centre + 2; bin += 1) power = Math.max(power, (probe.sums[bin] ?? 0) / Math.max(1, probe.frames));
            return [hz, 10 * Math.log10(power)];
          }),
        );
        const strongest = frequencies.reduce((best, hz) => ((levels[hz] as number) > (levels[best] as number) ? hz : best));
        probe.element.srcObject = null;
        const transport = receivers[i]?.transport;
        return { packets: received[i] ?? 0, levels, strongest, connection: `${transport?.iceTransport.state ?? 'none'}/${transport?.state ?? 'none'}` };
      });
      await context.close();
      return { tracks, packetsSent };
    },
    { frequencies, ms, index },
  );

/** How many peer connections the page has made so far. */
export const peerConnectionCount = (page: Page) => page.evaluate(() => (window as unknown as { __peerConnections: unknown[] }).__peerConnections.length);
