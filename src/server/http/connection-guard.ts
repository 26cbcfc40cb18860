/**
 * Caps the connections open at once, in total and from one source address. A connection past a
 * cap is answered `503 service_busy` at once and closed, before it can hold anything.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { ApiProblem } from './api-problem.js';
import { answerOnSocket } from './raw-problem.js';

export interface ConnectionCaps {
  /** Open connections in total. */
  connections: number;
  /** Open connections from one address; 0 for no cap. */
  connectionsPerAddress: number;
}

const RETRY_AFTER_SECONDS = '1';

export class ConnectionGuard {
  private open = 0;
  private readonly byAddress = new Map<string, number>();

  constructor(private readonly caps: ConnectionCaps) {}

  /**
   * Takes the place of the server's own connection handlers, so a connection over a cap never
   * reaches the HTTP parser: nothing it sends is read, let alone run.
   */
  attach(server: Server): void {
    const handlers = server.listeners('connection') as ((socket: Socket) => void)[];
    server.removeAllListeners('connection');
    server.on('connection', (socket: Socket) => {
      if (!this.admit(socket)) return;
      for (const handler of handlers) handler.call(server, socket);
    });
  }

  get openConnections(): number {
    return this.open;
  }

  private admit(socket: Socket): boolean {
    const address = socket.remoteAddress ?? 'unknown';
    const fromAddress = this.byAddress.get(address) ?? 0;
    if (this.open >= this.caps.connections) return this.refuse(socket, `The service holds its limit of ${this.caps.connections} open connections.`);
    if (this.caps.connectionsPerAddress > 0 && fromAddress >= this.caps.connectionsPerAddress)
      return this.refuse(socket, `Your address holds its limit of ${this.caps.connectionsPerAddress} open connections: reuse them (keep-alive).`);
    this.open += 1;
    this.byAddress.set(address, fromAddress + 1);
    socket.once('close', () => {
      this.open -= 1;
      const left = (this.byAddress.get(address) ?? 1) - 1;
      if (left > 0) this.byAddress.set(address, left);
      else this.byAddress.delete(address);
    });
    return true;
  }

  private refuse(socket: Socket, detail: string): false {
    // No HTTP parser listens on this socket: a reset from the peer must not go unhandled.
    socket.on('error', () => socket.destroy());
    answerOnSocket(socket, new ApiProblem('service_busy', `${detail} Retry in a moment.`, { headers: { 'retry-after': RETRY_AFTER_SECONDS } }));
    return false;
  }
}
