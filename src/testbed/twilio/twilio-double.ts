/**
 * A stateful double of Twilio's Calls resource, on a loopback port: calls created, listed (with
 * Twilio's filters and paging), fetched and updated; parent and child legs; each leg's course from
 * queued to its end; inbound calls to the account's numbers dialed to agents, or waiting in a queue
 * (`<Enqueue>`) listed by the Queue and Member resources; and status callbacks
 * POSTed to the URLs given, signed as Twilio signs them. Every request it receives and every answer
 * it gives is checked against Twilio's OpenAPI description: a mismatch is kept in `violations`, and
 * a request Twilio would refuse is refused. Tests drive each step; `behave` lets devices answer by themselves.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkAnswer, checkRequest } from './twilio-openapi.js';

export type LegStatus = 'queued' | 'ringing' | 'in-progress' | 'completed' | 'busy' | 'failed' | 'no-answer' | 'canceled';
const LIVE: readonly LegStatus[] = ['queued', 'ringing', 'in-progress'];

/** Twilio's Call resource, as it answers it. */
export interface CallResource {
  sid: string;
  date_created: string;
  date_updated: string;
  parent_call_sid: string | null;
  account_sid: string;
  to: string;
  to_formatted: string;
  from: string;
  from_formatted: string;
  phone_number_sid: string | null;
  status: LegStatus;
  start_time: string | null;
  end_time: string | null;
  duration: string | null;
  price: string | null;
  price_unit: string;
  direction: 'inbound' | 'outbound-api' | 'outbound-dial';
  answered_by: string | null;
  api_version: string;
  forwarded_from: string | null;
  group_sid: string | null;
  caller_name: string | null;
  queue_time: string;
  trunk_sid: string | null;
  uri: string;
  subresource_uris: Record<string, string>;
}

/** Twilio's Queue resource, as it answers it. */
export interface QueueResource {
  account_sid: string;
  average_wait_time: number;
  current_size: number;
  date_created: string;
  date_updated: string;
  friendly_name: string;
  max_size: number;
  sid: string;
  uri: string;
  subresource_uris: { members: string };
}

/** Twilio's Member resource, as it answers it: a call waiting in a queue. */
export interface MemberResource {
  call_sid: string;
  date_enqueued: string;
  position: number;
  queue_sid: string;
  uri: string;
  wait_time: number;
}

interface Queue {
  sid: string;
  friendlyName: string;
  createdAt: number;
  /** Its waiting calls in the order they came (call SID → when it came). */
  members: Map<string, number>;
}

/** `<Enqueue>`'s queues hold 1,000 calls unless the Queue resource says otherwise. */
const QUEUE_MAX_SIZE = 1000;

interface Callbacks {
  url: string;
  events: ReadonlySet<string>;
}

/** What a leg dials once it is answered: the `<Dial>` of its TwiML. */
interface DialPlan {
  to: string;
  callerID: string | undefined;
  callbacks: Callbacks | undefined;
}

interface Leg {
  resource: CallResource;
  callbacks: Callbacks | undefined;
  /** The next status callback's SequenceNumber. */
  sequence: number;
  dial: DialPlan | undefined;
  children: string[];
  answeredAt: number | undefined;
  timers: NodeJS.Timeout[];
  /** How its far end behaves, drawn when it started ringing. */
  behaviour: Behaviour | undefined;
}

/** How a device or number behaves when rung, for calls that run by themselves. */
export interface Behaviour {
  /** Answers after this long; never without it (it rings until the caller or Twilio gives up). */
  answerAfterMs?: number;
  /** Refuses at once: busy. */
  busy?: boolean;
  /** Hangs up this long after answering. */
  talkMs?: number;
}

export interface TwilioDoubleOptions {
  accountSid: string;
  authToken: string;
  port?: number;
  /** The double's clock (epoch ms); the real one by default. */
  now?: () => number;
  /**
   * Where a callback signed for a URL is delivered: that URL by default. A balancer in front of a
   * cluster is played by sending it to one instance, still signed for the balancer's URL.
   */
  deliverTo?: (url: string) => string;
}

export interface InboundCall {
  /** The caller's number, E.164. */
  from: string;
  /** The account's number called, E.164. */
  to: string;
  callerName?: string;
  /** The number's status callback (Twilio sends its `completed` event). */
  statusCallback?: string;
}

export interface DialOptions {
  /** Twilio gives up ringing after this long: each device's leg ends `no-answer`. */
  timeoutSeconds?: number;
  /** The `<Client>` / `<Number>` / `<Sip>` status callback, with its events. */
  statusCallback?: string;
  events?: readonly string[];
  /** The caller ID the devices see; the caller's number by default. */
  callerID?: string;
}

export interface SentCallback {
  url: string;
  params: Record<string, string>;
  sentAt: number;
  status: number | 'unreachable';
}

const rfc2822 = (ms: number) => new Date(ms).toUTCString().replace('GMT', '+0000');
const sidOf = (prefix: string) => `${prefix}${randomBytes(16).toString('hex')}`;
const e164 = (address: string) => address;
const formatted = (address: string) => (/^\+1\d{10}$/.test(address) ? `(${address.slice(2, 5)}) ${address.slice(5, 8)}-${address.slice(8)}` : address);

const TWILIO_ERRORS = {
  auth: { status: 401, code: 20003, message: 'Authenticate' },
  notFound: { status: 404, code: 20404, message: 'The requested resource was not found' },
  rateLimited: { status: 429, code: 20429, message: 'Too Many Requests' },
} as const;

/** Twilio's signature of a callback: HMAC-SHA1 of the URL and the fields in name order, base64. */
export const signCallback = (authToken: string, url: string, params: Record<string, string>): string =>
  createHmac('sha1', authToken)
    .update(Object.keys(params).sort().reduce((data, name) => data + name + params[name], url))
    .digest('base64');

/** The `<Dial>` of a TwiML document: its one noun, the caller ID, and the noun's status callback. */
const parseDial = (twiml: string): DialPlan | undefined => {
  const dial = /<Dial([^>]*)>([\s\S]*?)<\/Dial>/.exec(twiml);
  if (!dial) return undefined;
  const attribute = (text: string, name: string) => new RegExp(`${name}="([^"]*)"`).exec(text)?.[1]?.replaceAll('&amp;', '&');
  const noun = /<(Number|Client|Sip)([^>]*)>([^<]*)<\/\1>/.exec(dial[2] ?? '');
  if (!noun) return undefined;
  const [, kind, attributes = '', target = ''] = noun;
  const to = kind === 'Client' ? `client:${target.trim()}` : target.trim();
  const url = attribute(attributes, 'statusCallback');
  const events = attribute(attributes, 'statusCallbackEvent') ?? 'completed';
  return { to, callerID: attribute(dial[1] ?? '', 'callerId'), callbacks: url ? { url, events: new Set(events.split(/\s+/)) } : undefined };
};

export class TwilioDouble {
  private readonly legs = new Map<string, Leg>();
  private readonly queues = new Map<string, Queue>();
  private readonly behaviours = new Map<string, Behaviour | (() => Behaviour)>();
  private server: Server | undefined;
  private readonly now: () => number;
  /** Requests answered with a rate limit before the next is served. */
  private rateLimited = 0;
  /** While set, every request is answered 503. */
  outage = false;
  /** Mismatches with Twilio's OpenAPI description, in requests received and answers given. */
  readonly violations: string[] = [];
  /** Every request received: method, path, query and form. */
  readonly requests: { method: string; path: string; query: URLSearchParams; form: URLSearchParams | undefined }[] = [];
  readonly sentCallbacks: SentCallback[] = [];
  /** Callbacks under way, to wait for in tests. */
  private readonly pending = new Set<Promise<void>>();
  url = '';

  constructor(private readonly options: TwilioDoubleOptions) {
    this.now = options.now ?? Date.now;
  }

  static async start(options: TwilioDoubleOptions): Promise<TwilioDouble> {
    const double = new TwilioDouble(options);
    await double.listen(options.port ?? 0);
    return double;
  }

  async close(): Promise<void> {
    for (const leg of this.legs.values()) for (const timer of leg.timers) clearTimeout(timer);
    await this.settled();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.server?.closeAllConnections();
  }

  /** Resolves once every callback sent so far has been answered (or failed). */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  /**
   * How a device or number behaves when rung from now on (calls that run by themselves): the same
   * each time, or drawn for each call; `*` for any address without one of its own.
   */
  behave(address: string, behaviour: Behaviour | (() => Behaviour) | undefined): void {
    if (behaviour) this.behaviours.set(address, behaviour);
    else this.behaviours.delete(address);
  }

  /** The next `count` requests are answered 429 (Twilio's error 20429). */
  rateLimit(count: number): void {
    this.rateLimited = count;
  }

  call(sid: string): CallResource {
    const leg = this.legs.get(sid);
    if (!leg) throw new Error(`no call ${sid}`);
    return leg.resource;
  }

  /** Every leg, newest first, as Twilio lists them. */
  calls(): CallResource[] {
    return [...this.legs.values()].map((leg) => leg.resource).reverse();
  }

  children(sid: string): CallResource[] {
    return (this.legs.get(sid)?.children ?? []).map((child) => this.call(child));
  }

  /**
   * A call from `from` to one of the account's numbers: Twilio answers it at once to run the
   * number's TwiML (the leg reads in-progress), which is then dialed to agents with `dialAgents`.
   */
  inbound(call: InboundCall): string {
    const leg = this.newLeg({ direction: 'inbound', from: call.from, to: call.to, parent: null, callerName: call.callerName ?? null });
    leg.callbacks = call.statusCallback ? { url: call.statusCallback, events: new Set(['completed']) } : undefined;
    this.setStatus(leg, 'ringing');
    this.setStatus(leg, 'in-progress');
    return leg.resource.sid;
  }

  /** The inbound call's TwiML `<Dial>`s these devices at once: the first to answer takes the call, the others stop ringing. */
  dialAgents(parentSid: string, devices: readonly string[], options: DialOptions = {}): string[] {
    const parent = this.leg(parentSid);
    const callbacks = options.statusCallback ? { url: options.statusCallback, events: new Set(options.events ?? ['initiated', 'ringing', 'answered', 'completed']) } : undefined;
    const sids = devices.map((device) => {
      const child = this.newLeg({ direction: 'outbound-dial', from: options.callerID ?? parent.resource.from, to: device, parent: parentSid, callerName: null });
      child.callbacks = callbacks;
      parent.children.push(child.resource.sid);
      return child;
    });
    for (const child of sids) this.startRinging(child, options.timeoutSeconds ?? 30);
    return sids.map((child) => child.resource.sid);
  }

  /**
   * The call's TwiML `<Enqueue>`s it in the queue of this name, made on demand as Twilio makes one:
   * it waits there, a member, until it is dequeued or ends. Answers the queue's SID.
   */
  enqueue(callSid: string, name: string): string {
    if (!LIVE.includes(this.leg(callSid).resource.status)) throw new Error(`call ${callSid} is over`);
    const queue = [...this.queues.values()].find((known) => known.friendlyName === name) ?? this.newQueue(name);
    this.dequeue(callSid);
    queue.members.set(callSid, this.now());
    return queue.sid;
  }

  /** The call leaves its queue: another call's `<Dial><Queue>` took it, or its Member resource was updated with a `Url`, whose TwiML it runs next (`dialAgents`). */
  dequeue(callSid: string): void {
    for (const queue of this.queues.values()) queue.members.delete(callSid);
  }

  private newQueue(name: string): Queue {
    const queue: Queue = { sid: sidOf('QU'), friendlyName: name, createdAt: this.now(), members: new Map() };
    this.queues.set(queue.sid, queue);
    return queue;
  }

  /** The leg's far end answers. An agent's leg of an inbound call takes it; a click-to-call's first leg then dials its TwiML's number. */
  answer(sid: string): void {
    const leg = this.leg(sid);
    if (leg.resource.status !== 'ringing' && leg.resource.status !== 'queued') return;
    // Answered: Twilio no longer gives up on it, and its far end no longer answers it.
    for (const timer of leg.timers.splice(0)) clearTimeout(timer);
    this.setStatus(leg, 'in-progress');
    const parent = leg.resource.parent_call_sid ? this.legs.get(leg.resource.parent_call_sid) : undefined;
    if (parent) for (const sibling of parent.children) if (sibling !== sid) this.end(sibling, 'canceled');
    if (leg.dial) {
      const child = this.newLeg({ direction: 'outbound-dial', from: leg.dial.callerID ?? leg.resource.from, to: leg.dial.to, parent: sid, callerName: null });
      child.callbacks = leg.dial.callbacks;
      leg.children.push(child.resource.sid);
      this.startRinging(child, 30);
    }
    const talk = leg.behaviour?.talkMs;
    if (talk !== undefined) leg.timers.push(setTimeout(() => this.hangUp(sid), talk));
  }

  /** The leg ends (hung up, or refused when it had not been answered): a call ends with its parent, and a parent with its bridged child. */
  hangUp(sid: string): void {
    const leg = this.leg(sid);
    const status: LegStatus = leg.resource.status === 'in-progress' ? 'completed' : leg.resource.direction === 'inbound' ? 'canceled' : 'no-answer';
    this.end(sid, status);
  }

  /** The leg's far end refuses it: busy, no answer, or the call fails. */
  refuse(sid: string, status: 'busy' | 'no-answer' | 'failed'): void {
    this.end(sid, status);
  }

  private end(sid: string, status: LegStatus): void {
    const leg = this.leg(sid);
    if (!LIVE.includes(leg.resource.status)) return;
    for (const timer of leg.timers.splice(0)) clearTimeout(timer);
    // A caller who hangs up while waiting leaves the queue.
    this.dequeue(sid);
    const now = this.now();
    const answered = leg.answeredAt !== undefined;
    leg.resource.end_time = status === 'failed' ? null : rfc2822(now);
    leg.resource.duration = answered ? String(Math.round((now - (leg.answeredAt as number)) / 1000)) : status === 'completed' ? '0' : null;
    this.setStatus(leg, answered ? 'completed' : status);
    for (const child of leg.children) this.end(child, this.leg(child).resource.status === 'in-progress' ? 'completed' : 'canceled');
    const parent = leg.resource.parent_call_sid ? this.legs.get(leg.resource.parent_call_sid) : undefined;
    // A `<Dial>` is over when its leg was answered and ends, or when none of its legs is still ringing: the parent's TwiML ends, and the call.
    if (parent && (answered || parent.children.every((child) => !LIVE.includes(this.leg(child).resource.status)))) this.end(parent.resource.sid, 'completed');
  }

  private leg(sid: string): Leg {
    const leg = this.legs.get(sid);
    if (!leg) throw new Error(`no call ${sid}`);
    return leg;
  }

  private newLeg(options: { direction: CallResource['direction']; from: string; to: string; parent: string | null; callerName: string | null }): Leg {
    const sid = sidOf('CA');
    const now = rfc2822(this.now());
    const uri = `/2010-04-01/Accounts/${this.options.accountSid}/Calls/${sid}`;
    const resource: CallResource = {
      sid,
      date_created: now,
      date_updated: now,
      parent_call_sid: options.parent,
      account_sid: this.options.accountSid,
      to: e164(options.to),
      to_formatted: formatted(options.to),
      from: e164(options.from),
      from_formatted: formatted(options.from),
      phone_number_sid: options.direction === 'inbound' ? sidOf('PN') : null,
      status: 'queued',
      start_time: null,
      end_time: null,
      duration: null,
      price: null,
      price_unit: 'USD',
      direction: options.direction,
      answered_by: null,
      api_version: '2010-04-01',
      forwarded_from: null,
      group_sid: null,
      caller_name: options.callerName,
      queue_time: '0',
      trunk_sid: null,
      uri: `${uri}.json`,
      subresource_uris: Object.fromEntries(
        ['notifications', 'recordings', 'payments', 'events', 'siprec', 'streams', 'transcriptions', 'user_defined_message_subscriptions', 'user_defined_messages'].map(
          (name) => [name, `${uri}/${name.replace(/(^|_)([a-z])/g, (_all, _sep, letter: string) => letter.toUpperCase())}.json`],
        ),
      ),
    };
    const leg: Leg = { resource, callbacks: undefined, sequence: 0, dial: undefined, children: [], answeredAt: undefined, timers: [], behaviour: undefined };
    this.legs.set(sid, leg);
    return leg;
  }

  /** The leg is dialed: initiated, then ringing; its device's behaviour (if any) answers or refuses it, and Twilio gives up after the timeout. */
  private startRinging(leg: Leg, timeoutSeconds: number): void {
    leg.resource.start_time = rfc2822(this.now());
    this.callback(leg, 'initiated', 'initiated');
    const given = this.behaviours.get(leg.resource.to) ?? this.behaviours.get('*');
    const behaviour = typeof given === 'function' ? given() : given;
    leg.behaviour = behaviour;
    if (behaviour?.busy) {
      this.end(leg.resource.sid, 'busy');
      return;
    }
    this.setStatus(leg, 'ringing');
    const sid = leg.resource.sid;
    leg.timers.push(setTimeout(() => this.end(sid, 'no-answer'), timeoutSeconds * 1000));
    if (behaviour?.answerAfterMs !== undefined) leg.timers.push(setTimeout(() => this.answer(sid), behaviour.answerAfterMs));
  }

  private setStatus(leg: Leg, status: LegStatus): void {
    const now = this.now();
    leg.resource.status = status;
    leg.resource.date_updated = rfc2822(now);
    if (status === 'in-progress') {
      leg.answeredAt = now;
      leg.resource.start_time ??= rfc2822(now);
      this.callback(leg, 'answered', status);
    } else if (status === 'ringing') this.callback(leg, 'ringing', status);
    else if (!LIVE.includes(status)) this.callback(leg, 'completed', status);
  }

  /** Posts the leg's status callback for this event, when it asked for it; signed as Twilio signs. */
  private callback(leg: Leg, event: string, status: string): void {
    const callbacks = leg.callbacks;
    if (!callbacks || !callbacks.events.has(event)) return;
    const { resource } = leg;
    const params: Record<string, string> = {
      AccountSid: this.options.accountSid,
      ApiVersion: '2010-04-01',
      CallSid: resource.sid,
      CallStatus: status,
      Called: resource.to,
      Caller: resource.from,
      Direction: resource.direction,
      From: resource.from,
      To: resource.to,
      Timestamp: rfc2822(this.now()),
      CallbackSource: 'call-progress-events',
      SequenceNumber: String(leg.sequence),
      ...(resource.parent_call_sid ? { ParentCallSid: resource.parent_call_sid } : {}),
      ...(resource.caller_name ? { CallerName: resource.caller_name } : {}),
      ...(event === 'completed' ? { CallDuration: resource.duration ?? '0', Duration: String(Math.ceil(Number(resource.duration ?? 0) / 60)) } : {}),
    };
    leg.sequence += 1;
    this.post(callbacks.url, params);
  }

  /** Posts a callback now, in the background; `sentCallbacks` records it with the answer's status. */
  post(url: string, params: Record<string, string>, signature = signCallback(this.options.authToken, url, params)): void {
    const sent: SentCallback = { url, params, sentAt: this.now(), status: 'unreachable' };
    this.sentCallbacks.push(sent);
    const delivery = fetch(this.options.deliverTo?.(url) ?? url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signature, 'i-twilio-idempotency-token': randomBytes(16).toString('hex'), 'user-agent': 'TwilioProxy/1.1' },
      body: new URLSearchParams(params),
    }).then(
      async (response) => {
        sent.status = response.status;
        await response.arrayBuffer();
      },
      () => undefined,
    );
    this.pending.add(delivery);
    void delivery.finally(() => this.pending.delete(delivery));
  }

  private async listen(port: number): Promise<void> {
    this.server = createServer((request, response) => {
      void this.serve(request, response).catch((error: unknown) => {
        this.violations.push(`the double failed: ${(error as Error).message}`);
        if (!response.headersSent) this.answer500(response);
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(port, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  private answer500(response: ServerResponse): void {
    response.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ code: 20500, message: 'Internal Server Error', more_info: 'https://www.twilio.com/docs/errors/20500', status: 500 }));
  }

  private async serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', this.url);
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const form = request.method === 'POST' ? new URLSearchParams(Buffer.concat(chunks).toString('utf8')) : undefined;
    const method = request.method ?? 'GET';
    this.requests.push({ method, path: url.pathname, query: url.searchParams, form });
    const send = (status: number, body: unknown) => {
      this.violations.push(...checkAnswer(method, url.pathname, status, body).map((violation) => `answer: ${violation}`));
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    const fail = (error: { status: number; code: number; message: string }) =>
      send(error.status, { code: error.code, message: error.message, more_info: `https://www.twilio.com/docs/errors/${error.code}`, status: error.status });

    if (this.outage) return fail({ status: 503, code: 20503, message: 'Service Unavailable' });
    const expected = `Basic ${Buffer.from(`${this.options.accountSid}:${this.options.authToken}`).toString('base64')}`;
    if (request.headers.authorization !== expected) return fail(TWILIO_ERRORS.auth);
    if (this.rateLimited > 0) {
      this.rateLimited -= 1;
      return fail(TWILIO_ERRORS.rateLimited);
    }
    const checked = checkRequest({ method, path: url.pathname, query: url.searchParams, form });
    if (checked.violations.length > 0) {
      this.violations.push(...checked.violations.map((violation) => `request: ${violation}`));
      return fail({ status: 400, code: 20001, message: checked.violations.join('; ') });
    }
    if (!url.pathname.startsWith(`/2010-04-01/Accounts/${this.options.accountSid}/`)) return fail(TWILIO_ERRORS.notFound);
    const sid = /\/Calls\/(CA[0-9a-f]{32})\.json$/.exec(url.pathname)?.[1];
    switch (checked.operationId) {
      case 'CreateCall':
        return this.create(form as URLSearchParams, send, fail);
      case 'ListCall':
        return send(200, this.list(url));
      case 'ListQueue':
        return send(200, this.page(url, 'queues', [...this.queues.values()].map((queue) => this.queueResource(queue))));
      case 'ListMember': {
        const queue = this.queues.get(/\/Queues\/([^/]+)\/Members\.json$/.exec(url.pathname)?.[1] ?? '');
        return queue ? send(200, this.page(url, 'queue_members', this.memberResources(queue))) : fail(TWILIO_ERRORS.notFound);
      }
      case 'FetchCall':
        return sid && this.legs.has(sid) ? send(200, this.call(sid)) : fail(TWILIO_ERRORS.notFound);
      case 'UpdateCall': {
        if (!sid || !this.legs.has(sid)) return fail(TWILIO_ERRORS.notFound);
        // Twilio: `canceled` ends a call not yet answered, `completed` any call.
        const status = form?.get('Status');
        const live = this.call(sid).status;
        if (status === 'completed' || (status === 'canceled' && live !== 'in-progress')) this.end(sid, live === 'in-progress' ? 'completed' : 'canceled');
        return send(200, this.call(sid));
      }
      default:
        return fail({ status: 405, code: 20004, message: 'Method not allowed' });
    }
  }

  private create(
    form: URLSearchParams,
    send: (status: number, body: unknown) => void,
    fail: (error: { status: number; code: number; message: string }) => void,
  ): void {
    const to = form.get('To') as string;
    const from = form.get('From') as string;
    if (!/^(\+[1-9]\d{1,14}|client:[A-Za-z0-9_.-]+|sip:\S+@\S+)$/.test(to)) return fail({ status: 400, code: 21211, message: `Invalid 'To' Phone Number: ${to}` });
    if (!form.get('Twiml') && !form.get('Url') && !form.get('ApplicationSid')) return fail({ status: 400, code: 21205, message: 'Url parameter is required.' });
    const leg = this.newLeg({ direction: 'outbound-api', from, to, parent: null, callerName: null });
    const callback = form.get('StatusCallback');
    leg.callbacks = callback ? { url: callback, events: new Set(form.getAll('StatusCallbackEvent').length ? form.getAll('StatusCallbackEvent') : ['completed']) } : undefined;
    leg.dial = parseDial(form.get('Twiml') ?? '');
    send(201, { ...leg.resource });
    // Queued, then dialed: as Twilio, a moment after it answered.
    setImmediate(() => this.startRinging(leg, Number(form.get('Timeout') ?? 60)));
  }

  private list(url: URL): object {
    const query = url.searchParams;
    const at = (text: string | null): { day: string } | { ms: number } | undefined =>
      text === null ? undefined : /^\d{4}-\d{2}-\d{2}$/.test(text) ? { day: text } : { ms: Date.parse(text) };
    const passes = (time: string | null, name: string) => {
      for (const [suffix, test] of [
        ['', (t: number, bound: number) => t === bound],
        ['<', (t: number, bound: number) => t <= bound],
        ['>', (t: number, bound: number) => t >= bound],
      ] as const) {
        const bound = at(query.get(`${name}${suffix}`));
        if (!bound) continue;
        if (time === null) return false;
        const ms = Date.parse(time);
        if ('day' in bound) {
          const day = new Date(ms).toISOString().slice(0, 10);
          if (suffix === '' ? day !== bound.day : suffix === '<' ? day > bound.day : day < bound.day) return false;
        } else if (!test(ms, bound.ms)) return false;
      }
      return true;
    };
    const matching = this.calls().filter(
      (call) =>
        (!query.get('Status') || call.status === query.get('Status')) &&
        (!query.get('ParentCallSid') || call.parent_call_sid === query.get('ParentCallSid')) &&
        (!query.get('To') || call.to === query.get('To')) &&
        (!query.get('From') || call.from === query.get('From')) &&
        passes(call.start_time, 'StartTime') &&
        passes(call.end_time, 'EndTime'),
    );
    return this.page(url, 'calls', matching);
  }

  private queueResource(queue: Queue): QueueResource {
    const uri = `/2010-04-01/Accounts/${this.options.accountSid}/Queues/${queue.sid}`;
    const waits = this.memberResources(queue).map((member) => member.wait_time);
    return {
      account_sid: this.options.accountSid,
      // Twilio: the average wait of the members in the queue, worked out at the time of the request.
      average_wait_time: waits.length === 0 ? 0 : Math.round(waits.reduce((sum, wait) => sum + wait, 0) / waits.length),
      current_size: queue.members.size,
      date_created: rfc2822(queue.createdAt),
      date_updated: rfc2822(queue.createdAt),
      friendly_name: queue.friendlyName,
      max_size: QUEUE_MAX_SIZE,
      sid: queue.sid,
      uri: `${uri}.json`,
      subresource_uris: { members: `${uri}/Members.json` },
    };
  }

  private memberResources(queue: Queue): MemberResource[] {
    const now = this.now();
    return [...queue.members].map(([callSid, at], index) => ({
      call_sid: callSid,
      date_enqueued: rfc2822(at),
      position: index + 1,
      queue_sid: queue.sid,
      uri: `/2010-04-01/Accounts/${this.options.accountSid}/Queues/${queue.sid}/Members/${callSid}.json`,
      wait_time: Math.floor((now - at) / 1000),
    }));
  }

  /** One page of a list as Twilio answers it: the items under the resource's key, and the links to the pages around it. */
  private page(url: URL, key: string, items: readonly unknown[]): object {
    const query = url.searchParams;
    const pageSize = Number(query.get('PageSize') ?? 50);
    const token = query.get('PageToken');
    const startIndex = token ? Number(token.slice(2)) : Number(query.get('Page') ?? 0) * pageSize;
    const page = items.slice(startIndex, startIndex + pageSize);
    const base = url.pathname;
    const pageURI = (index: number) => {
      const params = new URLSearchParams(query);
      params.set('PageSize', String(pageSize));
      params.set('Page', String(Math.floor(index / pageSize)));
      if (index > 0) params.set('PageToken', `PA${index}`);
      else params.delete('PageToken');
      return `${base}?${params.toString()}`;
    };
    const next = startIndex + pageSize < items.length ? pageURI(startIndex + pageSize) : null;
    return {
      [key]: page,
      end: startIndex + Math.max(0, page.length - 1),
      first_page_uri: pageURI(0),
      next_page_uri: next,
      page: Math.floor(startIndex / pageSize),
      page_size: pageSize,
      previous_page_uri: startIndex > 0 ? pageURI(Math.max(0, startIndex - pageSize)) : null,
      start: startIndex,
      uri: `${base}?${query.toString()}`,
    };
  }
}
