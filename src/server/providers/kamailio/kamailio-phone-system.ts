/** A real phone system as provider: Kamailio, driven through its JSON-RPC interface (dialog and usrloc modules). */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Clock } from '../../clock.js';
import type { QueueConfig } from '../../queues/queue-config.js';
import { QueueDirectory } from '../../queues/queue-directory.js';
import { checkCaller } from '../caller-check.js';
import { CallNotEndable, ProviderFailure, type CallUpdate, type PhoneSystem, type PlaceCallRequest, type ProviderCall } from '../phone-system.js';
import { createCallListening, createSoftphoneAccess, type WebrtcSettings } from './browser-phones.js';
import { taggedURI } from './click-to-call-tag.js';
import { calleeByeParams } from './callee-bye.js';
import { callsFromDialogs, dialogsToEnd, parseDialogs } from './dialog-calls.js';
import { createJsonRpcClient, JsonRpcError, type JsonRpcCall } from './json-rpc-client.js';
import { sipURI } from './sip-uri.js';
import { toSubscriber } from '../agent-person.js';
import { createSubscriberDirectory, type DirectoryEntry } from './subscriber-directory.js';

export interface KamailioPhoneSystemOptions {
  /** Kamailio's JSON-RPC endpoint (jsonrpcs over xhttp), e.g. http://127.0.0.1:5071/RPC. */
  rpcURL: string;
  /** Host (and port) of the subscribers' SIP URIs: sip:<user>@<sipDomain>. */
  sipDomain: string;
  directory: readonly DirectoryEntry[];
  /** The provider's queues, which an inbound call's dialog variables lead to (none when left out). */
  queues?: readonly QueueConfig[];
  clock: Clock;
  /** Injected in tests; a client of rpcURL otherwise. */
  rpc?: JsonRpcCall;
  /** Browsers as phones (SIP over WebSocket), and silent listening through rtpengine. */
  webrtc?: WebrtcSettings;
}

/** The usrloc table the registrar saves to (the `save("location")` of the config). */
const LOCATION_TABLE = 'location';

const lookupSchema = z.object({ Contacts: z.array(z.unknown()) });
const dumpSchema = z.object({
  Domains: z.array(z.object({ Domain: z.object({ Domain: z.string(), AoRs: z.array(z.object({ AoR: z.string() })) }) })),
});

/** With usrloc's use_domain off an AoR is the user; with it on, user@domain. */
const userOfAoR = (aor: string) => aor.split('@', 1)[0] ?? aor;

const unexpected = (method: string, error: z.ZodError) =>
  new ProviderFailure('error', `${method} answered in an unexpected shape: ${error.issues[0]?.message ?? ''}`);

export const createKamailioPhoneSystem = (options: KamailioPhoneSystemOptions): PhoneSystem => {
  const rpc = options.rpc ?? createJsonRpcClient({ url: options.rpcURL });
  const directory = createSubscriberDirectory(options.directory);
  const queues = new QueueDirectory(options.queues ?? []);

  const isRegistered = async (sipUser: string, signal: AbortSignal): Promise<boolean> => {
    try {
      const parsed = lookupSchema.safeParse(await rpc('ul.lookup', [LOCATION_TABLE, sipUser], signal));
      if (!parsed.success) throw unexpected('ul.lookup', parsed.error);
      return parsed.data.Contacts.length > 0;
    } catch (error) {
      // usrloc answers an unknown AoR with an error, not an empty record.
      if (error instanceof JsonRpcError && /not found/i.test(error.rpcMessage)) return false;
      throw error;
    }
  };

  const registeredUsers = async (signal: AbortSignal): Promise<Set<string>> => {
    const parsed = dumpSchema.safeParse(await rpc('ul.dump', ['brief'], signal));
    if (!parsed.success) throw unexpected('ul.dump', parsed.error);
    const table = parsed.data.Domains.find((domain) => domain.Domain.Domain === LOCATION_TABLE);
    return new Set(table?.Domain.AoRs.map((aor) => userOfAoR(aor.AoR)));
  };

  const placeCall = async (request: PlaceCallRequest, signal: AbortSignal) => {
    const entry = directory.bySubscriberID(request.providerSubscriberID);
    const registered = entry ? await isRegistered(entry.sipUser, signal) : false;
    checkCaller(entry && toSubscriber(entry, registered), request);
    // checkCaller has thrown when there is no entry.
    const caller = entry as DirectoryEntry;
    const tag = { callKey: randomBytes(10).toString('hex'), remoteNumber: request.remoteNumber, placedAt: options.clock.now() };
    // Kamailio rings the subscriber and, once answered, REFERs them to the remote number. It answers at
    // once and reports no failure, which is why registration is checked first. Both URIs carry the tag:
    // whichever the subscriber's phone keeps in its own call (see dialog-calls.ts), the call stays one.
    await rpc(
      'dlg.bridge_dlg',
      [taggedURI(sipURI(caller.sipUser, options.sipDomain), tag), taggedURI(sipURI(request.remoteNumber, options.sipDomain), tag)],
      signal,
    );
  };

  /** A Kamailio that refuses tm.t_uac_start still ends the call with dlg.end_dlg's BYEs, as it did before. */
  const sendCalleeBye = async (params: string[], signal: AbortSignal) => {
    try {
      await rpc('tm.t_uac_start', params, signal);
    } catch (error) {
      if (!(error instanceof JsonRpcError)) throw error;
    }
  };

  /** Answered calls end with a BYE to both phones; Kamailio cannot cancel a call it only forwards while it rings. */
  const endCall = async (call: ProviderCall, signal: AbortSignal): Promise<CallUpdate[]> => {
    const found = dialogsToEnd(await rpc('dlg.list', [], signal), call.callID);
    if (found.kind === 'gone') throw new CallNotEndable('ended', `Kamailio no longer has a live dialog for call "${call.callID}".`);
    if (found.kind === 'ringing')
      throw new CallNotEndable(
        'refused',
        'Kamailio ends a call once it is answered: this one still rings, and a proxy cannot cancel a call it only forwards. Try again once it is answered.',
      );
    for (const dialog of found.dialogs) {
      // The callee is sent its own BYE first: dlg.end_dlg may skip it (see callee-bye.ts).
      const bye = calleeByeParams(dialog);
      if (bye) await sendCalleeBye(bye, signal);
      await rpc('dlg.end_dlg', [dialog.h_entry, dialog.h_id], signal);
    }
    // Kamailio need not list a dialog it ended itself any more: the call ends when it confirmed the end.
    const endedAt = options.clock.now();
    return [{ callID: call.callID, at: endedAt, fields: { endedAt } }];
  };

  const webrtc = options.webrtc;
  const listening = webrtc?.rtpengine ? createCallListening(webrtc.rtpengine, webrtc.iceServers, rpc) : undefined;

  return {
    listCalls: async (signal) => callsFromDialogs(parseDialogs(await rpc('dlg.list', [], signal)), directory, queues),
    ...(webrtc ? { softphone: createSoftphoneAccess(webrtc, directory, options.sipDomain) } : {}),
    ...(listening ? { listening } : {}),
    placeCall,
    endCall,
    listSubscribers: async (signal) => {
      const registered = await registeredUsers(signal);
      return directory.entries.map((entry) => toSubscriber(entry, registered.has(entry.sipUser)));
    },
    close: async () => listening?.close(),
  };
};
