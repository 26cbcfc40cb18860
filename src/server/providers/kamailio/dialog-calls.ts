/**
 * Kamailio's dialogs (dlg.list) as the provider's call records: one record per call, with its end
 * while Kamailio still lists the ended dialog (until its transaction's wait timer runs out).
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { QueueDirectory } from '../../queues/queue-directory.js';
import { subscriberFieldsOf } from '../agent-person.js';
import type { SubscriberFields } from '../call-fields.js';
import { CallNotListenable, ProviderFailure, type ProviderCall } from '../phone-system.js';
import { readTag, type ClickToCallTag } from './click-to-call-tag.js';
import { parseSipURI, phoneNumberOf, type SipURIParts } from './sip-uri.js';
import type { DirectoryEntry, SubscriberDirectory } from './subscriber-directory.js';

/** The dialog module's states: 1 unconfirmed and 2 early ring, 3 and 4 are answered, 5 has ended. */
const RINGING_STATES = new Set([1, 2]);
const ANSWERED_STATES = new Set([3, 4]);
const ENDED_STATE = 5;

/** The dialog variables the routing script sets: the R-URI's user as the caller dialed it, and the call's queue. */
const CALLED_VARIABLE = 'called';
const QUEUE_VARIABLE = 'queue';

/**
 * The dialog's variables (`$dlg_var`): Kamailio 5.6 lists one object per variable, and none once the
 * dialog has ended. One of another shape is left out rather than failing the list.
 */
const variablesSchema = z
  .array(z.record(z.string(), z.unknown()))
  .catch([])
  .transform((variables) =>
    Object.fromEntries(variables.flatMap((variable) => Object.entries(variable).filter((entry): entry is [string, string] => typeof entry[1] === 'string'))),
  );

const dialogSchema = z.object({
  'call-id': z.string().min(1),
  from_uri: z.string(),
  to_uri: z.string(),
  state: z.number().int(),
  /** Epoch seconds of the INVITE, of the answer (0 if none), and of the end (0 before it). */
  init_ts: z.number().int().nonnegative(),
  start_ts: z.number().int().nonnegative(),
  end_ts: z.number().int().nonnegative().default(0),
  variables: variablesSchema,
});
export type Dialog = z.infer<typeof dialogSchema>;

export const parseDialogs = (result: unknown): Dialog[] => {
  const parsed = z.array(dialogSchema).safeParse(result);
  if (!parsed.success) throw new ProviderFailure('error', `dlg.list answered in an unexpected shape: ${parsed.error.issues[0]?.message ?? ''}`);
  return parsed.data;
};

/**
 * Which leg of which call a dialog is. A click-to-call is first the controller's dialog ringing the
 * subscriber (its To carries the tag), then the subscriber's own call to the remote number, which the
 * controller's REFER names by a tagged URI too. baresip keeps the URI it was rung at as its From, so
 * that dialog carries the tag in its From; a browser (JsSIP) calls from its own address, and its
 * dialog carries the tag in its To, the REFER's target. Behind a phone that keeps neither, the second
 * dialog lists as a call of its own.
 */
type Leg =
  | { kind: 'controller'; dialog: Dialog; tag: ClickToCallTag; subscriber: SipURIParts }
  | { kind: 'bridged'; dialog: Dialog; tag: ClickToCallTag; subscriber: SipURIParts; remote: SipURIParts }
  | { kind: 'direct'; dialog: Dialog; from: SipURIParts; to: SipURIParts };

const legOf = (dialog: Dialog): Leg => {
  const from = parseSipURI(dialog.from_uri);
  const to = parseSipURI(dialog.to_uri);
  const fromTag = readTag(from);
  if (fromTag) return { kind: 'bridged', dialog, tag: fromTag, subscriber: from, remote: to };
  const toTag = readTag(to);
  // The controller rings the subscriber; the subscriber's own call goes to the remote number.
  if (toTag && toTag.remoteNumber !== '' && phoneNumberOf(to.user) === toTag.remoteNumber) return { kind: 'bridged', dialog, tag: toTag, subscriber: from, remote: to };
  if (toTag) return { kind: 'controller', dialog, tag: toTag, subscriber: to };
  return { kind: 'direct', dialog, from, to };
};

const callIDOf = (leg: Leg): string => (leg.kind === 'direct' ? hashedID(leg.dialog['call-id']) : `kam-${leg.tag.callKey}`);

const hashedID = (sipCallID: string) => `kam-${createHash('sha256').update(sipCallID).digest('hex').slice(0, 24)}`;

const subscriberFields = (entry: DirectoryEntry | undefined): Partial<SubscriberFields> => (entry ? subscriberFieldsOf(entry) : {});

/** Whether the dialog was ever answered: an ended dialog keeps the time of its answer. */
const wasAnswered = (dialog: Dialog) => dialog.start_ts > 0 && (ANSWERED_STATES.has(dialog.state) || dialog.state === ENDED_STATE);

/** The dialog's answer in ms, never before the call's start: the dialog module counts whole seconds. */
const answeredAtOf = (dialog: Dialog, startedAt: number): number | undefined =>
  wasAnswered(dialog) ? Math.max(startedAt, dialog.start_ts * 1000) : undefined;

/** The dialog's end in ms, never before what came first: the answer, or the start. */
const endedAtOf = (dialog: Dialog, notBefore: number): number | undefined =>
  dialog.state === ENDED_STATE ? Math.max(notBefore, dialog.end_ts * 1000) : undefined;

/** The end and, for a call to a subscriber, whether it was missed: inbound, ended, never answered. */
const endOf = (dialog: Dialog, startedAt: number, isOutbound: boolean): Pick<ProviderCall, 'answeredAt' | 'endedAt' | 'isMissedCall'> => {
  const answeredAt = answeredAtOf(dialog, startedAt);
  const endedAt = endedAtOf(dialog, answeredAt ?? startedAt);
  return { answeredAt, endedAt, isMissedCall: !isOutbound && endedAt !== undefined && answeredAt === undefined };
};

/** The dialed number as the call record tells it: a phone number's digits, an extension as dialed. */
const calledNumberOf = (dialed: string | undefined): string | undefined => (dialed ? phoneNumberOf(dialed) || dialed : undefined);

/**
 * An inbound call's dialed number and queue, from the variables the routing script set. An ended
 * dialog lists none: the service keeps what it saw while the call rang or talked.
 */
const queueFieldsOf = ({ variables }: Dialog, queues: QueueDirectory): Pick<ProviderCall, 'calledNumber' | 'queueID' | 'queueName'> => {
  const calledNumber = calledNumberOf(variables[CALLED_VARIABLE]);
  return {
    ...(calledNumber === undefined ? {} : { calledNumber }),
    ...queues.fieldsOf({ isOutbound: false, calledNumber, providerQueue: variables[QUEUE_VARIABLE] }),
  };
};

const callOf = (leg: Leg, directory: SubscriberDirectory, queues: QueueDirectory): ProviderCall => {
  const providerCallID = leg.dialog['call-id'];
  switch (leg.kind) {
    case 'controller':
      // The subscriber's phone rings; whatever the state of this leg, the remote party has not answered yet. The
      // leg ends for good only if the subscriber never answered: once they did, it ends as they are transferred.
      return {
        providerCallID,
        callID: callIDOf(leg),
        isOutbound: true,
        isMissedCall: false,
        remoteNumber: leg.tag.remoteNumber,
        startedAt: leg.tag.placedAt,
        // Their phone answered: they hear the remote number being dialed.
        subscriberAnsweredAt: answeredAtOf(leg.dialog, leg.tag.placedAt),
        endedAt: wasAnswered(leg.dialog) ? undefined : endedAtOf(leg.dialog, leg.tag.placedAt),
        ...subscriberFields(directory.bySipUser(leg.subscriber.user)),
      };
    case 'bridged':
      return {
        providerCallID,
        callID: callIDOf(leg),
        isOutbound: true,
        remoteNumber: phoneNumberOf(leg.remote.user),
        startedAt: leg.tag.placedAt,
        // The subscriber's phone places this leg once it answered the controller's.
        subscriberAnsweredAt: Math.max(leg.tag.placedAt, leg.dialog.init_ts * 1000),
        ...endOf(leg.dialog, leg.tag.placedAt, true),
        ...subscriberFields(directory.bySipUser(leg.subscriber.user)),
      };
    case 'direct': {
      const caller = directory.bySipUser(leg.from.user);
      const startedAt = leg.dialog.init_ts * 1000;
      return {
        providerCallID,
        callID: callIDOf(leg),
        isOutbound: caller !== undefined,
        remoteNumber: phoneNumberOf(caller ? leg.to.user : leg.from.user),
        startedAt,
        ...(caller ? { subscriberAnsweredAt: startedAt } : queueFieldsOf(leg.dialog, queues)),
        ...endOf(leg.dialog, startedAt, caller !== undefined),
        ...subscriberFields(caller ?? directory.bySipUser(leg.to.user)),
      };
    }
  }
};

/**
 * Live dialogs, and ended ones that still say when they ended; one without (a Kamailio that does
 * not report end_ts) is left out, and the service ends its call when it leaves the list.
 */
const isListed = (dialog: Dialog) =>
  RINGING_STATES.has(dialog.state) || ANSWERED_STATES.has(dialog.state) || (dialog.state === ENDED_STATE && dialog.end_ts > 0);

export const callsFromDialogs = (dialogs: readonly Dialog[], directory: SubscriberDirectory, queues: QueueDirectory): ProviderCall[] => {
  const legs = dialogs.filter(isListed).map(legOf);
  // Once the subscriber calls the remote number, that dialog is the call; the controller's leg is about to end.
  const bridged = new Set(legs.flatMap((leg) => (leg.kind === 'bridged' ? [leg.tag.callKey] : [])));
  return legs.filter((leg) => !(leg.kind === 'controller' && bridged.has(leg.tag.callKey))).map((leg) => callOf(leg, directory, queues));
};

/** A field of a side Kamailio does not know yet (a ringing dialog's callee) is null: read as empty. */
const legField = z
  .string()
  .nullish()
  .transform((value) => value ?? '');

/**
 * One side of a dialog as dlg.list gives it: what a request within the dialog to that side needs.
 * Only the BYE to a callee reads it, so a side in another shape is left out rather than failing the list.
 */
const dialogLegSchema = z
  .object({ tag: legField, contact: legField, cseq: legField, route_set: legField, socket: legField })
  .optional()
  .catch(undefined);

/** A dialog with its place in the dialog module's table, which dlg.end_dlg takes, and its two sides. */
const handledDialogSchema = dialogSchema.extend({
  h_entry: z.number().int().nonnegative(),
  h_id: z.number().int().nonnegative(),
  iflags: z.number().int().nonnegative().default(0),
  caller: dialogLegSchema,
  callee: dialogLegSchema,
});
export type HandledDialog = z.infer<typeof handledDialogSchema>;

/** What ending a call asks of Kamailio: the answered dialogs to end, or why there are none. */
export type DialogsToEnd = { kind: 'end'; dialogs: HandledDialog[] } | { kind: 'ringing' } | { kind: 'gone' };

/**
 * The dialogs of one call that Kamailio can end (dlg.end_dlg sends BYE both ways, on answered
 * dialogs only): a click-to-call may be two, the controller's leg and the subscriber's own call.
 */
export const dialogsToEnd = (result: unknown, callID: string): DialogsToEnd => {
  const parsed = z.array(handledDialogSchema).safeParse(result);
  if (!parsed.success) throw new ProviderFailure('error', `dlg.list answered in an unexpected shape: ${parsed.error.issues[0]?.message ?? ''}`);
  const live = parsed.data.filter((dialog) => (RINGING_STATES.has(dialog.state) || ANSWERED_STATES.has(dialog.state)) && callIDOf(legOf(dialog)) === callID);
  const answered = live.filter((dialog) => ANSWERED_STATES.has(dialog.state));
  if (answered.length > 0) return { kind: 'end', dialogs: answered };
  return live.length > 0 ? { kind: 'ringing' } : { kind: 'gone' };
};

/** The media of a call to listen to: its SIP Call-ID at rtpengine, and the tags of its two parties. */
export interface CallMedia {
  sipCallID: string;
  tags: [string, string];
}

/**
 * The answered dialog whose media is the call's: the subscriber's own call of a click-to-call, never
 * the controller's leg (its media is a placeholder until the REFER). Throws CallNotListenable when
 * there is none yet, or no more.
 */
export const dialogToListen = (result: unknown, callID: string): CallMedia => {
  const parsed = z.array(handledDialogSchema).safeParse(result);
  if (!parsed.success) throw new ProviderFailure('error', `dlg.list answered in an unexpected shape: ${parsed.error.issues[0]?.message ?? ''}`);
  const live = parsed.data
    .filter((dialog) => RINGING_STATES.has(dialog.state) || ANSWERED_STATES.has(dialog.state))
    .map((dialog) => ({ dialog, leg: legOf(dialog) }))
    .filter(({ leg }) => callIDOf(leg) === callID);
  const talking = live.find(({ dialog, leg }) => leg.kind !== 'controller' && ANSWERED_STATES.has(dialog.state))?.dialog;
  const callerTag = talking?.caller?.tag;
  const calleeTag = talking?.callee?.tag;
  if (talking && callerTag && calleeTag) return { sipCallID: talking['call-id'], tags: [callerTag, calleeTag] };
  if (live.length > 0) throw new CallNotListenable('not_answered', `Call "${callID}" is not answered yet: listen once both parties talk.`);
  throw new CallNotListenable('ended', `Kamailio no longer has a live dialog for call "${callID}".`);
};
