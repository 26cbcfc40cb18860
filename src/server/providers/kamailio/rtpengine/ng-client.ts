/**
 * A client of rtpengine's ng control protocol: a cookie and a bencoded dictionary per UDP datagram,
 * answered under the same cookie. rtpengine keeps its answers by cookie for a while, so a request
 * whose answer was lost is sent again as it was and answered the same. Kamailio 5.6's script cannot
 * send `subscribe request` / `subscribe answer` / `unsubscribe` (they came with its 6.x): the
 * service speaks them itself, to fork a call's media to one more receiver (a silent listener).
 */
import { randomBytes } from 'node:crypto';
import { createSocket, type Socket } from 'node:dgram';
import { decodeBencode, encodeBencode, type BencodeValue } from './bencode.js';

export type NgDictionary = { [key: string]: BencodeValue };

/** rtpengine refused a request, or did not answer in time: what it said, and to which command. */
export class RtpengineError extends Error {
  constructor(
    readonly command: string,
    readonly reason: string,
  ) {
    super(`rtpengine ${command}: ${reason}`);
  }
}

export interface NgClientOptions {
  host: string;
  port: number;
  /** How long one attempt waits for its answer. */
  attemptTimeoutMs?: number;
  /** Attempts per request, the first included. */
  attempts?: number;
}

interface Waiting {
  resolve: (answer: NgDictionary) => void;
  reject: (error: Error) => void;
}

/**
 * What a WebRTC listener's offer asks of rtpengine: ICE and DTLS-SRTP on its side, rtpengine the
 * ICE-lite end and the DTLS client. The offer has one transport per party; with rtpengine a full ICE
 * agent, the first party's often stayed in "checking" in Chromium (1 run in 3 with Chromium's mDNS
 * names, 5 in 5 with its real addresses), while the browser's own checks settle both when rtpengine
 * only answers them.
 */
export const WEBRTC_LISTENER_FLAGS: NgDictionary = { ICE: 'force', 'ICE-lite': 'forward', DTLS: 'active', 'transport-protocol': 'UDP/TLS/RTP/SAVPF', 'rtcp-mux': ['offer'] };

export class NgClient {
  private socket: Socket | undefined;
  private readonly waiting = new Map<string, Waiting>();
  private readonly attemptTimeoutMs: number;
  private readonly attempts: number;

  constructor(private readonly options: NgClientOptions) {
    this.attemptTimeoutMs = options.attemptTimeoutMs ?? 1000;
    this.attempts = options.attempts ?? 3;
  }

  private open(): Socket {
    if (this.socket) return this.socket;
    const socket = createSocket('udp4');
    socket.on('message', (message) => this.take(message));
    socket.on('error', (error) => {
      for (const waiter of this.waiting.values()) waiter.reject(error);
      this.waiting.clear();
    });
    socket.unref();
    this.socket = socket;
    return socket;
  }

  private take(message: Buffer): void {
    const space = message.indexOf(0x20);
    if (space <= 0) return;
    const cookie = message.toString('ascii', 0, space);
    const waiter = this.waiting.get(cookie);
    if (!waiter) return;
    this.waiting.delete(cookie);
    try {
      const answer = decodeBencode(message.subarray(space + 1));
      if (answer === null || typeof answer !== 'object' || Array.isArray(answer)) throw new Error('the answer is not a dictionary');
      waiter.resolve(answer);
    } catch (error) {
      waiter.reject(error as Error);
    }
  }

  /** Sends `command` with `params`; resolves with rtpengine's answer once its result is ok (or pong). */
  async request(command: string, params: NgDictionary = {}): Promise<NgDictionary> {
    const socket = this.open();
    const cookie = randomBytes(8).toString('hex');
    const datagram = Buffer.concat([Buffer.from(`${cookie} `, 'ascii'), encodeBencode({ ...params, command })]);
    const answer = new Promise<NgDictionary>((resolve, reject) => this.waiting.set(cookie, { resolve, reject }));
    let timer: NodeJS.Timeout | undefined;
    try {
      for (let attempt = 1; attempt <= this.attempts; attempt += 1) {
        socket.send(datagram, this.options.port, this.options.host);
        const timeout = new Promise<'timeout'>((resolve) => {
          timer = setTimeout(() => resolve('timeout'), this.attemptTimeoutMs);
        });
        const result = await Promise.race([answer, timeout]);
        clearTimeout(timer);
        if (result === 'timeout') continue;
        if (result.result === 'ok' || result.result === 'pong') return result;
        throw new RtpengineError(command, String(result['error-reason'] ?? result.result ?? 'no result'));
      }
      throw new RtpengineError(command, `no answer from ${this.options.host}:${this.options.port} after ${this.attempts} attempts of ${this.attemptTimeoutMs} ms`);
    } finally {
      clearTimeout(timer);
      this.waiting.delete(cookie);
    }
  }

  async ping(): Promise<void> {
    await this.request('ping');
  }

  close(): void {
    this.socket?.close();
    this.socket = undefined;
  }
}

/** The SDP of an answer, or an error saying the answer carried none. */
export const sdpOf = (command: string, answer: NgDictionary): string => {
  if (typeof answer.sdp !== 'string') throw new RtpengineError(command, 'the answer carries no SDP');
  return answer.sdp;
};
