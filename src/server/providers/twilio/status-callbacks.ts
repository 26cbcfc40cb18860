/**
 * Twilio's status callbacks: checking that one is Twilio's own (`X-Twilio-Signature`, an HMAC-SHA1
 * with the account's auth token over the URL Twilio was given and the sorted form fields), and
 * what it tells of a call, as an update ordered by the leg's `SequenceNumber`.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { QueueDirectory } from '../../queues/queue-directory.js';
import { subscriberFieldsOf } from '../agent-person.js';
import { WebhookRefused, type CallUpdate, type WebhookRequest } from '../phone-system.js';
import { type AgentDirectory, digitsOf } from './agent-directory.js';
import { kindOf, parseTwilioTime, placeOf } from './call-legs.js';

/** Form fields as Twilio posts them; a field given twice keeps every value. */
export type FormParams = Record<string, string | string[]>;

export const readForm = (body: string): FormParams => {
  const params: FormParams = {};
  for (const [name, value] of new URLSearchParams(body)) {
    const seen = params[name];
    params[name] = seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), value];
  }
  return params;
};

/** Twilio's signature of a request: the URL, then each field name and value in name order (a repeated field's values sorted, each once). */
export const twilioSignature = (authToken: string, url: string, params: FormParams): string => {
  let data = url;
  for (const name of Object.keys(params).sort()) {
    const value = params[name] as string | string[];
    for (const one of Array.isArray(value) ? [...new Set(value)].sort() : [value]) data += name + one;
  }
  return createHmac('sha1', authToken).update(Buffer.from(data, 'utf8')).digest('base64');
};

/** The URL with and without its scheme's default port: Twilio may have signed either. */
const portVariants = (url: string): string[] => {
  const match = /^(https?):\/\/([^/:?#]+)(:\d+)?(.*)$/i.exec(url);
  if (!match) return [url];
  const [, scheme, host, port, rest] = match as unknown as [string, string, string, string | undefined, string];
  const standard = scheme.toLowerCase() === 'https' ? ':443' : ':80';
  if (port && port !== standard) return [url];
  return [`${scheme}://${host}${rest}`, `${scheme}://${host}${standard}${rest}`];
};

const sameText = (a: string, b: string): boolean => {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  // The length of a SHA-1 signature is no secret; the comparison of its bytes takes the same time whatever they are.
  return left.length === right.length && timingSafeEqual(left, right);
};

/** Whether `signature` is Twilio's for this URL and these fields, compared in constant time. */
export const isSignedByTwilio = (authToken: string, url: string, params: FormParams, signature: string): boolean =>
  portVariants(url).some((candidate) => sameText(twilioSignature(authToken, candidate, params), signature));

const CALLBACK_STATUSES = new Set([
  'queued',
  'initiated',
  'ringing',
  'in-progress',
  'completed',
  'busy',
  'failed',
  'no-answer',
  'canceled',
]);
const ENDED = new Set(['completed', 'busy', 'failed', 'no-answer', 'canceled']);

const one = (params: FormParams, name: string): string | undefined => {
  const value = params[name];
  return Array.isArray(value) ? value[0] : value;
};

const required = (params: FormParams, name: string): string => {
  const value = one(params, name);
  if (value === undefined || value === '') throw new WebhookRefused('malformed', `the status callback has no ${name}`);
  return value;
};

/** The leg a callback URL was given for, where the service placed the call: `leg=remote` marks a click-to-call's remote party. */
export type LegHint = 'remote' | undefined;

/**
 * What one status callback tells of its call. A parent leg's callback tells of the call itself;
 * a child leg's tells who was rung and when they answered: an agent's device (their call from now
 * on; an inbound call, if the service does not know it yet) or the remote party of a click-to-call.
 */
export const updateFromCallback = (params: FormParams, agents: AgentDirectory, hint: LegHint, queues = QueueDirectory.EMPTY): CallUpdate => {
  const callSid = required(params, 'CallSid');
  const status = required(params, 'CallStatus');
  if (!CALLBACK_STATUSES.has(status))
    throw new WebhookRefused('malformed', `the status callback's CallStatus "${status}" is not one of Twilio's`);
  const at = parseTwilioTime(required(params, 'Timestamp'));
  if (at === undefined) throw new WebhookRefused('malformed', "the status callback's Timestamp is not a time");
  const sequence = one(params, 'SequenceNumber');
  const update: CallUpdate = { callID: callSid, at, source: callSid, fields: {} };
  if (sequence !== undefined && /^\d+$/.test(sequence)) update.sequence = Number(sequence);
  const parent = one(params, 'ParentCallSid');
  const from = one(params, 'From');
  const to = one(params, 'To');
  const answered = status === 'in-progress';
  const ended = ENDED.has(status);

  if (parent) {
    update.callID = parent;
    const agent = agents.byDevice(to);
    if (agent) {
      // An agent who did not take the call leaves it to whoever is rung next.
      if (!ended) update.fields = { ...subscriberFieldsOf(agent), ...(answered ? { answeredAt: at } : {}) };
      update.defaults = { providerCallID: parent, isOutbound: false, remoteNumber: digitsOf(from), startedAt: at };
    } else if (hint === 'remote') {
      const remoteNumber = digitsOf(to);
      update.fields = { ...(remoteNumber ? { remoteNumber } : {}), ...(answered ? { answeredAt: at } : {}) };
    }
    return update;
  }

  const kind = kindOf(one(params, 'Direction'), from, to, agents);
  const seconds = Number(one(params, 'CallDuration') ?? 0);
  const remoteNumber = kind.kind === 'inbound' ? digitsOf(from) : kind.kind === 'two-step' ? '' : digitsOf(to);
  const callerName = one(params, 'CallerName');
  update.fields = {
    providerCallID: callSid,
    isOutbound: kind.kind !== 'inbound',
    ...(remoteNumber ? { remoteNumber } : {}),
    ...(kind.kind === 'inbound' && callerName ? { remoteName: callerName } : {}),
    // A status callback names no queue (Twilio tells it only to `<Enqueue>`'s own TwiML requests): the number dialed decides here, lists tell the queue a call waits in.
    ...(kind.kind === 'inbound' ? placeOf(to, queues) : {}),
    ...(kind.kind === 'two-step' || kind.kind === 'direct' ? subscriberFieldsOf(kind.agent) : {}),
    // Twilio answers an inbound call itself to run its TwiML, and a click-to-call's first leg is the agent's: neither is the call's answer.
    ...(answered && (kind.kind === 'direct' || kind.kind === 'outbound') ? { answeredAt: at } : {}),
    // The agent picked up the click-to-call's first leg: they hear the remote number being dialed.
    ...(answered && kind.kind === 'two-step' ? { subscriberAnsweredAt: at } : {}),
    ...(ended ? { endedAt: at } : {}),
  };
  // The call's start, as near as this callback tells; the service keeps the earliest it saw.
  const startedAt = ended && Number.isFinite(seconds) ? at - seconds * 1000 : at;
  // A call dialed from the agent's own number: their side is connected from its start.
  update.defaults = { remoteNumber, startedAt, ...(kind.kind === 'direct' ? { subscriberAnsweredAt: startedAt } : {}) };
  return update;
};

export interface CallbackCheck {
  authToken: string;
  accountSid: string;
  /** The service's address as Twilio reaches it, before the request's path. */
  webhookBaseURL: string;
  agents: AgentDirectory;
  queues: QueueDirectory;
}

/** Reads a request to the webhook: Twilio's own, for this account, a status callback; throws WebhookRefused otherwise. */
export const receiveCallback = (request: WebhookRequest, check: CallbackCheck): CallUpdate[] => {
  const header = request.headers['x-twilio-signature'];
  const signature = Array.isArray(header) ? header[0] : header;
  if (!signature) throw new WebhookRefused('unsigned', 'the request carries no X-Twilio-Signature');
  const url = `${check.webhookBaseURL.replace(/\/+$/, '')}${request.url}`;
  const params = readForm(request.body);
  if (!isSignedByTwilio(check.authToken, url, params, signature))
    throw new WebhookRefused('forged', `the X-Twilio-Signature is not Twilio's for ${url} with the account's auth token`);
  if (one(params, 'AccountSid') !== check.accountSid)
    throw new WebhookRefused('malformed', "the callback is not about this provider's account");
  const hint = new URL(url).searchParams.get('leg') === 'remote' ? 'remote' : undefined;
  return [updateFromCallback(params, check.agents, hint, check.queues)];
};
