/**
 * A client of one baresip phone's ctrl_tcp interface: netstring JSON commands (dial, accept,
 * hangup) and the stream of call events. ctrl_tcp serves one connection at a time, so each phone
 * has exactly one of these.
 */
import { connect, type Socket } from 'node:net';
import { encodeNetstring, NetstringReader } from './netstring.js';

/** A call event as baresip reports it, e.g. CALL_INCOMING, CALL_RINGING, CALL_ESTABLISHED, CALL_CLOSED. */
export interface PhoneEvent {
  type: string;
  /** baresip's call ID: the SIP Call-ID. */
  id?: string;
  direction?: 'incoming' | 'outgoing';
  peeruri?: string;
  param?: string;
  /** When it arrived here, epoch ms. */
  at: number;
}

interface Pending {
  resolve: (data: string) => void;
  reject: (error: Error) => void;
}

type Waiter = (event: PhoneEvent) => void;

const KEEP_EVENTS = 500;

export class PhoneControl {
  /** The latest events, oldest first; a long demo would otherwise keep them all. */
  private readonly recent: PhoneEvent[] = [];
  private dropped = 0;
  private readonly pending = new Map<string, Pending>();
  private readonly waiters = new Set<Waiter>();
  private readonly reader = new NetstringReader();
  private nextToken = 1;

  private constructor(
    private readonly socket: Socket,
    private readonly name: string,
  ) {
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    socket.on('close', () => this.failPending(new Error(`${name}: control connection closed`)));
    socket.on('error', () => undefined);
  }

  static connect(port: number, name: string, timeoutMs = 5000): Promise<PhoneControl> {
    const deadline = Date.now() + timeoutMs;
    const attempt = (): Promise<PhoneControl> =>
      new Promise<Socket>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1');
        socket.once('connect', () => resolve(socket));
        socket.once('error', reject);
      }).then(
        (socket) => new PhoneControl(socket, name),
        async (error: Error) => {
          if (Date.now() > deadline) throw new Error(`${name}: control port ${port} did not open: ${error.message}`);
          await new Promise((resolve) => setTimeout(resolve, 50));
          return attempt();
        },
      );
    return attempt();
  }

  /** Sends a menu command and resolves with its answer; rejects when baresip says it failed. */
  command(command: string, params = '', timeoutMs = 5000): Promise<string> {
    const token = `cmd-${this.nextToken++}`;
    return new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(token);
        reject(new Error(`${this.name}: no answer to "${command}" within ${timeoutMs} ms`));
      }, timeoutMs);
      const settle = { resolve: (data: string) => (clearTimeout(timer), resolve(data)), reject: (error: Error) => (clearTimeout(timer), reject(error)) };
      this.pending.set(token, settle);
      this.socket.write(encodeNetstring(JSON.stringify({ command, params, token })));
    });
  }

  dial(uri: string): Promise<string> {
    return this.command('dial', uri);
  }

  answer(): Promise<string> {
    return this.command('accept');
  }

  hangup(): Promise<string> {
    return this.command('hangup');
  }

  /** Calls `listener` with every event from now on; returns the unsubscribe. */
  onEvent(listener: (event: PhoneEvent) => void): () => void {
    this.waiters.add(listener);
    return () => this.waiters.delete(listener);
  }

  /** How many events have arrived so far: pass it as `since` to wait for what an action causes. */
  get seen(): number {
    return this.dropped + this.recent.length;
  }

  /** The first matching event from number `since` on (default: from now), within the timeout. */
  waitFor(match: (event: PhoneEvent) => boolean, { since = this.seen, timeoutMs = 10_000 } = {}): Promise<PhoneEvent> {
    const earlier = this.recent.slice(Math.max(0, since - this.dropped)).find(match);
    if (earlier) return Promise.resolve(earlier);
    return new Promise<PhoneEvent>((resolve, reject) => {
      const waiter: Waiter = (event) => {
        if (!match(event)) return;
        clearTimeout(timer);
        this.waiters.delete(waiter);
        resolve(event);
      };
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        const recent = this.recent.slice(-5).map((e) => e.type).join(', ') || 'none';
        reject(new Error(`${this.name}: the awaited event did not come within ${timeoutMs} ms (last events: ${recent})`));
      }, timeoutMs);
      this.waiters.add(waiter);
    });
  }

  close(): void {
    this.socket.destroy();
  }

  private receive(chunk: Buffer): void {
    for (const frame of this.reader.push(chunk)) {
      const message = JSON.parse(frame) as { response?: boolean; ok?: boolean; data?: string; token?: string; event?: boolean; type?: string };
      if (message.response && message.token !== undefined) this.settle(message.token, message.ok === true, message.data ?? '');
      else if (message.event && message.type) this.record({ ...(message as Omit<PhoneEvent, 'at'>), at: Date.now() });
    }
  }

  private settle(token: string, ok: boolean, data: string): void {
    const pending = this.pending.get(token);
    this.pending.delete(token);
    if (ok) pending?.resolve(data);
    else pending?.reject(new Error(`${this.name}: ${data.trim() || 'command failed'}`));
  }

  private record(event: PhoneEvent): void {
    this.recent.push(event);
    if (this.recent.length > KEEP_EVENTS) {
      this.recent.shift();
      this.dropped += 1;
    }
    for (const waiter of [...this.waiters]) waiter(event);
  }

  private failPending(error: Error): void {
    for (const pending of this.pending.values()) pending.reject(error);
    this.pending.clear();
  }
}
