/**
 * A stateful double of Asterisk's REST Interface (ARI), on a loopback port: endpoints with their
 * state, channels and mixing bridges as a dialplan makes them, the application's event WebSocket
 * (`/ari/events`, with `subscribeAll`), and the requests the Asterisk provider makes (list channels,
 * bridges and endpoints; originate; hang up). Calls run as Asterisk runs them: a queue answers the
 * caller and rings agents' phones through `Dial`, the answering phone is bridged with the caller,
 * the others are cancelled ("answered elsewhere"); an originated channel rings the agent's phone and,
 * once answered, continues in the dialplan, which dials the number through the trunk. Events carry
 * the server's local offset in their dates, as Asterisk's do. Tests drive each step; endpoint
 * behaviours let originated calls run by themselves.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { checkAnswer, checkEvent, checkRequest } from './ari-description.js';

export type ChannelState = 'Down' | 'Ring' | 'Ringing' | 'Up' | 'Busy';

export interface CallerID {
  name: string;
  number: string;
}

/** ARI's Channel, as it answers it. */
export interface ChannelJSON {
  id: string;
  name: string;
  protocol_id: string;
  state: ChannelState;
  caller: CallerID;
  connected: CallerID;
  accountcode: string;
  dialplan: { context: string; exten: string; priority: number; app_name: string; app_data: string };
  creationtime: string;
  language: string;
}

/** ARI's Bridge, as it answers it. */
export interface BridgeJSON {
  id: string;
  technology: string;
  bridge_type: 'mixing' | 'holding';
  bridge_class: string;
  creator: string;
  name: string;
  channels: string[];
  creationtime: string;
  video_mode: string;
}

/** ARI's Endpoint, as it answers it. */
export interface EndpointJSON {
  technology: string;
  resource: string;
  state: 'unknown' | 'offline' | 'online';
  channel_ids: string[];
}

/** How a phone behaves when rung by an originate, for calls that run by themselves. */
export interface Behaviour {
  /** Answers after this long; without it, it rings until the test answers, or the originate's timeout. */
  answerAfterMs?: number;
  /** Refuses at once: busy (cause 17). */
  busy?: boolean;
  /** Hangs up this long after answering. */
  talkMs?: number;
}

interface Channel {
  json: ChannelJSON;
  endpoint: string;
  bridge?: string;
  /** The channel that dialed this one, and the ones it dialed. */
  dialedBy?: string;
  dialstring?: string;
  dialed: Set<string>;
  timers: NodeJS.Timeout[];
  /** What the dialplan does once this originated channel is answered: dial on. */
  continueTo?: { context: string; exten: string };
  behaviour?: Behaviour;
}

/** Q.850 causes Asterisk reports, with its words for them. */
export const CAUSES = {
  normal: [16, 'Normal Clearing'],
  busy: [17, 'User busy'],
  noAnswer: [19, 'No user responding'],
  absent: [20, 'Subscriber absent'],
  answeredElsewhere: [26, 'Answered elsewhere'],
} as const satisfies Record<string, readonly [number, string]>;
export type Cause = keyof typeof CAUSES;

export interface AriDoubleOptions {
  username: string;
  password: string;
  /** Endpoints the PBX has ("PJSIP/101"), online unless set otherwise. */
  endpoints: readonly string[];
  /** The trunk endpoint outbound calls leave by. */
  trunk?: string;
  /** The server's local offset, as its dates carry it; "+0100" by default. */
  offset?: string;
}

export interface ReceivedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

export class AriDouble {
  private readonly server: Server;
  private readonly sockets = new WebSocketServer({ noServer: true });
  private readonly channels = new Map<string, Channel>();
  private readonly bridges = new Map<string, BridgeJSON>();
  private readonly endpoints = new Map<string, EndpointJSON>();
  private readonly behaviours = new Map<string, Behaviour>();
  private readonly offsetMinutes: number;
  private nextChannel = 1;
  private uniqueSeq = 1;
  /** Every request received, in order. */
  readonly requests: ReceivedRequest[] = [];
  /** Every event sent, in order. */
  readonly events: Record<string, unknown>[] = [];
  /** What did not match Asterisk's published description: requests received, answers given, events sent. */
  readonly violations: string[] = [];
  /** Whether new event sockets are refused (an Asterisk restarting, a proxy down). */
  refuseEvents = false;
  /** Fails every HTTP request with 503 while set. */
  failRequests = false;
  url = '';

  private constructor(private readonly options: AriDoubleOptions) {
    const offset = options.offset ?? '+0100';
    this.offsetMinutes = (offset.startsWith('-') ? -1 : 1) * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(3, 5)));
    for (const endpoint of [...options.endpoints, options.trunk ?? 'PJSIP/trunk']) {
      const [technology = '', resource = ''] = endpoint.split('/');
      this.endpoints.set(endpoint, { technology, resource, state: 'online', channel_ids: [] });
    }
    this.server = createServer((request, response) => void this.handle(request, response));
    this.server.on('upgrade', (request, socket, head) => {
      // A client that gives up (a cut, a stop) resets its socket: nothing to do about it here.
      socket.on('error', () => undefined);
      const url = new URL(request.url ?? '/', 'http://double');
      if (url.pathname !== '/ari/events' || !this.authorized(request) || this.refuseEvents || !url.searchParams.get('app')) {
        const status = !this.authorized(request) ? '401 Unauthorized' : this.refuseEvents ? '503 Service Unavailable' : '400 Bad Request';
        socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
        return;
      }
      const query = Object.fromEntries(url.searchParams);
      this.requests.push({ method: 'GET', path: url.pathname, query });
      this.violations.push(...checkRequest('GET', url.pathname, query));
      this.sockets.handleUpgrade(request, socket, head, (ws) => {
        ws.on('error', () => undefined);
        this.sockets.emit('connection', ws, request);
      });
    });
  }

  static async start(options: AriDoubleOptions): Promise<AriDouble> {
    const double = new AriDouble(options);
    await new Promise<void>((resolve) => double.server.listen(0, '127.0.0.1', resolve));
    double.url = `http://127.0.0.1:${(double.server.address() as AddressInfo).port}`;
    return double;
  }

  async stop(): Promise<void> {
    for (const channel of this.channels.values()) for (const timer of channel.timers) clearTimeout(timer);
    for (const socket of this.sockets.clients) socket.terminate();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Event sockets open now. */
  get openSockets(): number {
    return this.sockets.clients.size;
  }

  /** Cuts every event socket, as a restart of Asterisk or a network cut would. */
  cutEvents(): void {
    for (const socket of this.sockets.clients) socket.terminate();
  }

  /** The date as Asterisk writes it: local time with its offset, no colon. */
  date(ms = Date.now()): string {
    const local = new Date(ms + this.offsetMinutes * 60_000);
    const sign = this.offsetMinutes < 0 ? '-' : '+';
    const abs = Math.abs(this.offsetMinutes);
    return (
      `${local.getUTCFullYear()}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}T${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:` +
      `${pad(local.getUTCSeconds())}.${pad(local.getUTCMilliseconds(), 3)}${sign}${pad(Math.floor(abs / 60))}${pad(abs % 60)}`
    );
  }

  setEndpointState(endpoint: string, state: EndpointJSON['state']): void {
    const known = this.endpoints.get(endpoint);
    if (!known || known.state === state) return;
    known.state = state;
    this.emit({ type: 'EndpointStateChange', endpoint: { ...known, channel_ids: [...known.channel_ids] } });
  }

  endpointState(endpoint: string): EndpointJSON['state'] | undefined {
    return this.endpoints.get(endpoint)?.state;
  }

  /** How the phone at this endpoint behaves when an originate rings it; "number:<digits>" for a number dialed out, "number:*" for any. */
  behave(endpoint: string, behaviour: Behaviour | undefined): void {
    if (behaviour) this.behaviours.set(endpoint, behaviour);
    else this.behaviours.delete(endpoint);
  }

  channel(id: string): ChannelJSON | undefined {
    return this.channels.get(id)?.json;
  }

  liveChannels(): ChannelJSON[] {
    return [...this.channels.values()].map((channel) => channel.json);
  }

  // --- The dialplan's steps, each with the events Asterisk sends -------------------------------

  /** A new channel on an endpoint (a caller's trunk channel, a phone rung, an originate). */
  createChannel(
    endpoint: string,
    fields: { caller?: CallerID; connected?: CallerID; context?: string; exten?: string; id?: string; state?: ChannelState; name?: string },
  ): ChannelJSON {
    const suffix = (this.nextChannel++).toString(16).padStart(8, '0');
    const id = fields.id ?? `${Math.floor(Date.now() / 1000)}.${this.uniqueSeq++}`;
    const json: ChannelJSON = {
      id,
      name: fields.name ?? `${endpoint}-${suffix}`,
      protocol_id: randomUUID(),
      state: fields.state ?? 'Down',
      caller: fields.caller ?? { name: '', number: '' },
      connected: fields.connected ?? { name: '', number: '' },
      accountcode: '',
      dialplan: { context: fields.context ?? 'default', exten: fields.exten ?? 's', priority: 1, app_name: '', app_data: '' },
      creationtime: this.date(),
      language: 'en',
    };
    this.channels.set(id, { json, endpoint, dialed: new Set(), timers: [] });
    this.endpoints.get(endpoint)?.channel_ids.push(id);
    this.emit({ type: 'ChannelCreated', channel: json });
    return json;
  }

  setState(id: string, state: ChannelState): void {
    const channel = this.channels.get(id);
    if (!channel || channel.json.state === state) return;
    channel.json.state = state;
    this.emit({ type: 'ChannelStateChange', channel: channel.json });
  }

  /** The channel runs a dialplan application (Queue, Dial, ...) at its place in the dialplan. */
  runApp(id: string, app: string, data: string, at?: { context: string; exten: string }): void {
    const channel = this.channels.get(id);
    if (!channel) return;
    if (at) channel.json.dialplan = { ...channel.json.dialplan, ...at, priority: 1 };
    channel.json.dialplan = { ...channel.json.dialplan, app_name: app, app_data: data };
    this.emit({ type: 'ChannelDialplan', channel: channel.json, dialplan_app: app, dialplan_app_data: data });
  }

  /** `caller` dials a new channel on `endpoint`: it is created, the Dial told, and it rings. */
  dial(callerID: string, endpoint: string, dialstring: string, app: 'AppDial' | 'AppQueue' = 'AppDial'): ChannelJSON {
    const peer = this.outgoingChannel(callerID, endpoint, app);
    this.tellDial(callerID, peer.id, dialstring);
    return peer;
  }

  /** The channel a Dial (or a Queue) makes to call out: created "Down", before the Dial event names its caller. */
  outgoingChannel(callerID: string, endpoint: string, app: 'AppDial' | 'AppQueue' = 'AppDial', name?: string): ChannelJSON {
    const caller = this.channels.get(callerID) as Channel;
    const peer = this.createChannel(endpoint, {
      caller: { ...caller.json.caller },
      connected: { ...caller.json.caller },
      context: caller.json.dialplan.context,
      exten: caller.json.dialplan.exten,
      ...(name ? { name } : {}),
    });
    const peerChannel = this.channels.get(peer.id) as Channel;
    peerChannel.json.dialplan = { ...peerChannel.json.dialplan, app_name: app, app_data: '(Outgoing Line)' };
    return peerChannel.json;
  }

  /** The Dial that names a channel's caller, once the channel is called: it rings. */
  tellDial(callerID: string, peerID: string, dialstring: string): void {
    const caller = this.channels.get(callerID) as Channel;
    const peerChannel = this.channels.get(peerID) as Channel;
    peerChannel.dialedBy = callerID;
    caller.dialed.add(peerID);
    peerChannel.dialstring = dialstring;
    this.emit({ type: 'Dial', caller: caller.json, peer: peerChannel.json, forward: '', dialstring, dialstatus: '' });
    this.setState(peerID, 'Ringing');
    this.emit({ type: 'Dial', caller: caller.json, peer: peerChannel.json, forward: '', dialstring, dialstatus: 'RINGING' });
  }

  /** The dialed channel answers: Up, the Dial answered, the others its caller dialed cancelled, and the two bridged. */
  answer(peerID: string): void {
    const peer = this.channels.get(peerID);
    if (!peer) return;
    this.setState(peerID, 'Up');
    const caller = peer.dialedBy ? this.channels.get(peer.dialedBy) : undefined;
    if (!caller) return;
    this.emit({ type: 'Dial', caller: caller.json, peer: peer.json, forward: '', dialstring: peer.dialstring ?? '', dialstatus: 'ANSWER' });
    for (const other of [...caller.dialed]) {
      if (other === peerID) continue;
      const otherChannel = this.channels.get(other);
      if (!otherChannel) continue;
      this.emit({ type: 'Dial', caller: caller.json, peer: otherChannel.json, forward: '', dialstring: otherChannel.dialstring ?? '', dialstatus: 'CANCEL' });
      this.hangup(other, 'answeredElsewhere', false);
    }
    if (caller.json.state !== 'Up') this.setState(caller.json.id, 'Up');
    caller.json.connected = { ...peer.json.caller };
    this.emit({ type: 'ChannelConnectedLine', channel: caller.json });
    this.bridge([caller.json.id, peerID]);
  }

  /** A mixing bridge with these channels in it. */
  bridge(ids: readonly string[]): BridgeJSON {
    const bridge: BridgeJSON = {
      id: randomUUID(),
      technology: 'simple_bridge',
      bridge_type: 'mixing',
      bridge_class: 'basic',
      creator: 'Dial',
      name: '',
      channels: [],
      creationtime: this.date(),
      video_mode: 'talker',
    };
    this.bridges.set(bridge.id, bridge);
    this.emit({ type: 'BridgeCreated', bridge });
    for (const id of ids) {
      const channel = this.channels.get(id);
      if (!channel) continue;
      channel.bridge = bridge.id;
      bridge.channels.push(id);
      this.emit({ type: 'ChannelEnteredBridge', bridge, channel: channel.json });
    }
    return bridge;
  }

  /** The channel leaves the bridge alive (moved on: a transfer, a standing agent channel). */
  leaveBridge(bridgeID: string, id: string): void {
    const bridge = this.bridges.get(bridgeID);
    const channel = this.channels.get(id);
    if (!bridge || !channel) return;
    bridge.channels = bridge.channels.filter((member) => member !== id);
    channel.bridge = undefined;
    this.emit({ type: 'ChannelLeftBridge', bridge, channel: channel.json });
  }

  /** Sets a state as Asterisk may write it, outside the published list ("Rsrvd", "Mute"), without an event. */
  forceState(id: string, state: string): void {
    const channel = this.channels.get(id);
    if (channel) channel.json.state = state as ChannelState;
  }

  /**
   * Hangs up a channel, as a phone putting down or Asterisk ending it, with the cause. A dialed
   * channel's end tells its caller's Dial; with `onward`, the channel's partners in its bridge and
   * the channels it still dials end too, as Dial ends the other side.
   */
  hangup(id: string, cause: Cause = 'normal', onward = true): void {
    const channel = this.channels.get(id);
    if (!channel) return;
    const [code, words] = CAUSES[cause];
    for (const timer of channel.timers) clearTimeout(timer);
    this.emit({ type: 'ChannelHangupRequest', channel: channel.json, cause: code });
    const caller = channel.dialedBy ? this.channels.get(channel.dialedBy) : undefined;
    if (caller && channel.json.state !== 'Up' && cause !== 'answeredElsewhere') {
      const dialstatus = cause === 'busy' ? 'BUSY' : cause === 'noAnswer' ? 'NOANSWER' : cause === 'absent' ? 'CHANUNAVAIL' : 'CANCEL';
      this.emit({ type: 'Dial', caller: caller.json, peer: channel.json, forward: '', dialstring: channel.dialstring ?? '', dialstatus });
    }
    caller?.dialed.delete(id);
    // The phones it still rings stop ringing first: their Dial is cancelled while it still exists.
    if (onward) for (const other of [...channel.dialed]) if (this.channels.get(other)?.json.state !== 'Up') this.hangup(other, 'normal', false);
    const partners: string[] = [];
    if (channel.bridge) {
      const bridge = this.bridges.get(channel.bridge);
      if (bridge) {
        bridge.channels = bridge.channels.filter((member) => member !== id);
        this.emit({ type: 'ChannelLeftBridge', bridge, channel: channel.json });
        partners.push(...bridge.channels);
        if (bridge.channels.length === 0) {
          this.bridges.delete(bridge.id);
          this.emit({ type: 'BridgeDestroyed', bridge });
        }
      }
    }
    this.channels.delete(id);
    const endpoint = this.endpoints.get(channel.endpoint);
    if (endpoint) endpoint.channel_ids = endpoint.channel_ids.filter((other) => other !== id);
    this.emit({ type: 'ChannelDestroyed', channel: channel.json, cause: code, cause_txt: words });
    if (!onward) return;
    for (const other of new Set([...partners, ...channel.dialed])) this.hangup(other, 'normal');
  }

  // --- Whole scenarios ---------------------------------------------------------------------------

  /**
   * A caller reaches a queue: the trunk channel is created at the number they dialed (`did`, as the
   * trunk gives it: digits, "+" and digits, or an extension), runs `Queue(<queue>,t,,,300)`, and the
   * queue answers it.
   */
  inboundCall(from: CallerID, { did = '15005550006', queue = 'support' }: { did?: string; queue?: string } = {}): InboundCall {
    const trunk = this.options.trunk ?? 'PJSIP/trunk';
    // A call coming in is made ringing ("Ring"); one Asterisk dials out is made "Down".
    const channel = this.createChannel(trunk, { caller: from, context: 'from-trunk', exten: did, state: 'Ring' });
    this.runApp(channel.id, 'Queue', `${queue},t,,,300`, { context: 'from-trunk', exten: did });
    this.setState(channel.id, 'Up');
    return new InboundCall(this, channel.id);
  }

  // --- HTTP -------------------------------------------------------------------------------------

  private authorized(request: IncomingMessage): boolean {
    const expected = `Basic ${Buffer.from(`${this.options.username}:${this.options.password}`).toString('base64')}`;
    return request.headers.authorization === expected;
  }

  private emit(body: Record<string, unknown>): void {
    const event = { ...body, asterisk_id: '02:42:ac:11:00:02', application: 'callboard', timestamp: this.date() };
    // Each event shows the objects as they are when it is sent.
    const text = JSON.stringify(event);
    const sent = JSON.parse(text) as Record<string, unknown>;
    this.events.push(sent);
    this.violations.push(...checkEvent(sent));
    for (const socket of this.sockets.clients as Set<WebSocket>) if (socket.readyState === socket.OPEN) socket.send(text);
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://double');
    const query = Object.fromEntries(url.searchParams);
    this.requests.push({ method: request.method ?? 'GET', path: url.pathname, query });
    this.violations.push(...checkRequest(request.method ?? 'GET', url.pathname, query));
    const send = (status: number, body?: unknown) => {
      this.violations.push(...checkAnswer(request.method ?? 'GET', url.pathname, status, body));
      response.writeHead(status, body === undefined ? {} : { 'content-type': 'application/json' });
      response.end(body === undefined ? undefined : JSON.stringify(body));
    };
    if (!this.authorized(request)) return send(401, { message: 'Authentication required' });
    if (this.failRequests) return send(503, { message: 'Service Unavailable' });
    const path = url.pathname;
    const method = request.method ?? 'GET';
    if (method === 'GET' && path === '/ari/channels') return send(200, this.liveChannels());
    if (method === 'GET' && path === '/ari/bridges') return send(200, [...this.bridges.values()]);
    if (method === 'GET' && path === '/ari/endpoints') return send(200, [...this.endpoints.values()]);
    const endpointPath = /^\/ari\/endpoints\/([^/]+)\/([^/]+)$/.exec(path);
    if (method === 'GET' && endpointPath) {
      const endpoint = this.endpoints.get(`${decodeURIComponent(endpointPath[1] as string)}/${decodeURIComponent(endpointPath[2] as string)}`);
      return endpoint ? send(200, endpoint) : send(404, { message: 'Endpoint not found' });
    }
    if (method === 'POST' && path === '/ari/channels') return this.originate(query, send);
    const channelPath = /^\/ari\/channels\/([^/]+)$/.exec(path);
    if (method === 'DELETE' && channelPath) {
      const id = decodeURIComponent(channelPath[1] as string);
      if (!this.channels.has(id)) return send(404, { message: 'Channel not found' });
      if (query.reason !== undefined && query.reason_code !== undefined) return send(400, { message: 'The reason and reason_code can\'t both be specified' });
      if (query.reason !== undefined && !['normal', 'busy', 'congestion', 'no_answer', 'timeout', 'rejected', 'unallocated', 'normal_unspecified', 'number_incomplete', 'codec_mismatch', 'interworking', 'failure', 'answered_elsewhere'].includes(query.reason))
        return send(400, { message: 'Invalid reason for hangup provided' });
      this.hangup(id, 'normal');
      return send(204);
    }
    return send(404, { message: 'Resource not found' });
  }

  /**
   * POST /channels: the channel is made on the endpoint; answered, it goes on in the dialplan at
   * context/extension, which dials the number (through the trunk) or the agent's extension.
   */
  private originate(query: Record<string, string>, send: (status: number, body?: unknown) => void): void {
    const endpoint = query.endpoint ?? '';
    if (!endpoint) return send(400, { message: 'Endpoint must be specified' });
    if (!/^[^/]+\/.+$/.test(endpoint)) return send(400, { message: 'Invalid endpoint specified' });
    if (query.app === undefined && query.extension === undefined) return send(400, { message: 'Application or extension must be specified' });
    if (query.channelId && this.channels.has(query.channelId)) return send(409, { message: 'Channel with given unique ID already exists' });
    const trunk = this.options.trunk ?? 'PJSIP/trunk';
    const trunkDial = /^PJSIP\/(\d+)@trunk$/.exec(endpoint);
    const onEndpoint = trunkDial ? trunk : endpoint;
    const known = this.endpoints.get(onEndpoint);
    // Asterisk cannot make a channel on an endpoint it does not have: a 500 its description does not list.
    if (!known) return send(500, { error: 'Allocation failed' });
    const callerId = /^"?([^"<]*)"?\s*<(\d*)>$/.exec(query.callerId ?? '');
    const channel = this.createChannel(onEndpoint, {
      ...(query.channelId ? { id: query.channelId } : {}),
      caller: { name: callerId?.[1]?.trim() ?? '', number: callerId?.[2] ?? '' },
      connected: trunkDial ? { name: '', number: trunkDial[1] as string } : { name: '', number: '' },
      context: query.context ?? 'default',
      exten: query.extension ?? 's',
    });
    send(200, channel);
    const state = this.channels.get(channel.id) as Channel;
    state.continueTo = { context: query.context ?? 'default', exten: query.extension ?? 's' };
    if (known.state === 'offline') {
      state.timers.push(setTimeout(() => this.hangup(channel.id, 'absent'), 5));
      return;
    }
    const behaviour = trunkDial ? this.numberBehaviour(trunkDial[1] as string) : this.behaviours.get(onEndpoint);
    state.behaviour = behaviour;
    state.timers.push(setTimeout(() => this.setState(channel.id, 'Ringing'), 5));
    if (behaviour?.busy) state.timers.push(setTimeout(() => this.hangup(channel.id, 'busy'), 10));
    else if (behaviour?.answerAfterMs !== undefined) state.timers.push(setTimeout(() => this.answerOriginated(channel.id), behaviour.answerAfterMs));
    const timeoutSeconds = Number(query.timeout ?? 30);
    if (timeoutSeconds > 0) state.timers.push(setTimeout(() => this.hangup(channel.id, 'noAnswer'), timeoutSeconds * 1000));
  }

  private numberBehaviour(number: string): Behaviour | undefined {
    return this.behaviours.get(`number:${number}`) ?? this.behaviours.get('number:*');
  }

  /** An originated channel is answered: Up, then the dialplan at its context and extension dials on. */
  answerOriginated(id: string): void {
    const channel = this.channels.get(id);
    if (!channel || channel.json.state === 'Up') return;
    for (const timer of channel.timers) clearTimeout(timer);
    channel.timers = [];
    this.setState(id, 'Up');
    const to = channel.continueTo;
    if (!to) return;
    // The agent's extension rings a phone; any other number leaves by the trunk.
    const agentEndpoint = [...this.endpoints.keys()].find((endpoint) => endpoint.endsWith(`/${to.exten}`));
    const peerEndpoint = agentEndpoint ?? this.options.trunk ?? 'PJSIP/trunk';
    const dialstring = agentEndpoint ? agentEndpoint.slice(agentEndpoint.indexOf('/') + 1) : `${to.exten}@trunk`;
    this.runApp(id, 'Dial', `${agentEndpoint ?? `PJSIP/${to.exten}@trunk`},45`, to);
    const peer = this.dial(id, peerEndpoint, dialstring);
    const peerBehaviour = agentEndpoint ? this.behaviours.get(agentEndpoint) : this.numberBehaviour(to.exten);
    const peerState = this.channels.get(peer.id) as Channel;
    if (peerBehaviour?.busy) peerState.timers.push(setTimeout(() => this.hangup(peer.id, 'busy'), 10));
    else if (peerBehaviour?.answerAfterMs !== undefined)
      peerState.timers.push(
        setTimeout(() => {
          this.answer(peer.id);
          const talk = peerBehaviour.talkMs ?? channel.behaviour?.talkMs;
          if (talk !== undefined) peerState.timers.push(setTimeout(() => this.hangup(peer.id), talk));
        }, peerBehaviour.answerAfterMs),
      );
  }
}

/** A caller in the queue, driven step by step. */
export class InboundCall {
  private readonly rung = new Map<string, string>();

  constructor(
    private readonly double: AriDouble,
    /** The caller's trunk channel: the call's first leg. */
    readonly channelID: string,
  ) {}

  /** The queue rings these agents' phones. */
  ring(endpoints: readonly string[]): this {
    for (const endpoint of endpoints) {
      const peer = this.double.dial(this.channelID, endpoint, endpoint.slice(endpoint.indexOf('/') + 1), 'AppQueue');
      this.rung.set(endpoint, peer.id);
    }
    return this;
  }

  /** The channel ringing this agent's phone. */
  legOf(endpoint: string): string {
    const id = this.rung.get(endpoint);
    if (!id) throw new Error(`${endpoint} was not rung`);
    return id;
  }

  answer(endpoint: string): this {
    this.double.answer(this.legOf(endpoint));
    return this;
  }

  /** The agent's phone refuses: busy. */
  reject(endpoint: string): this {
    this.double.hangup(this.legOf(endpoint), 'busy', false);
    return this;
  }

  /** The caller puts down (abandons, while phones ring). */
  callerHangsUp(): this {
    this.double.hangup(this.channelID, 'normal');
    return this;
  }

  /** The agent puts down, ending the conversation. */
  agentHangsUp(endpoint: string): this {
    this.double.hangup(this.legOf(endpoint), 'normal');
    return this;
  }
}
