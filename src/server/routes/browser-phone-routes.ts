/**
 * The browser as a phone (extensions): time-limited SIP credentials for a subscriber's browser, and a
 * supervisor's silent listening to a live call (an SDP offer out, the browser's answer in, a stop).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { routePatterns, type ProviderScope } from '../../contract/paths.js';
import {
  listenAnswerRequestSchema,
  listenOfferSchema,
  softphoneCredentialsRequestSchema,
  softphoneCredentialsSchema,
  type ListenOffer,
  type SoftphoneCredentials,
} from '../../contract/softphone.js';
import { actorOf } from '../auth/actor.js';
import type { Clock } from '../clock.js';
import type { HistoryStore } from '../history/history-store.js';
import { ApiProblem } from '../http/api-problem.js';
import { domainProblem } from '../http/domain-problems.js';
import { requireJsonBody } from '../http/json-body.js';
import type { RouteDoc } from '../http/route-catalog.js';
import { zodProblem } from '../http/zod-problem.js';
import type { CallListening, ProviderCall } from '../providers/phone-system.js';
import type { ProviderRuntime, ProviderRuntimes } from '../runtime/provider-runtimes.js';
import { requireCallerAllowed, requirePermission, resolveControlledCall, resolveProvider } from './resolve-provider.js';

export interface BrowserPhoneRoutesOptions {
  registry: ProviderRuntimes;
  history: HistoryStore;
  clock: Clock;
}

/** The answer's SDP (at most 65,536 characters) in its JSON body, escapes and all. */
const LISTEN_ANSWER_BODY_BYTES = 160 * 1024;

type ScopeRequest = FastifyRequest<{ Params: ProviderScope }>;
type CallRequest = FastifyRequest<{ Params: ProviderScope & { callID: string } }>;
type ListenerRequest = FastifyRequest<{ Params: ProviderScope & { callID: string; listenID: string } }>;

const credentialsDoc: RouteDoc = {
  operationId: 'softphoneCredentials',
  summary: "Credentials for a subscriber's browser phone (extension)",
  description:
    "Time-limited SIP credentials with which the subscriber's browser registers at the phone system over WebSocket and " +
    'places and takes calls (WebRTC). The phone system checks them against a secret it shares with the service, so no SIP ' +
    'password reaches a browser; ask for new ones before `expiresAt`. Needs `calls:write`, and a signed-in agent or an ' +
    "agent's token gets them only for their own subscriber (403 `subscriber_not_allowed`). A provider without browser phones " +
    'answers 501 `not_supported` (`GET /v1/me` says which have them, as `softphone`). The answer is never cached.',
  body: softphoneCredentialsRequestSchema,
  responses: { '200': { description: 'The credentials', json: softphoneCredentialsSchema } },
  problems: ['forbidden', 'not_found', 'subscriber_not_allowed', 'subscriber_not_found', 'subscriber_inactive', 'validation_failed', 'unsupported_media_type', 'not_supported'],
};

const listenDoc: RouteDoc = {
  operationId: 'listenToCall',
  summary: 'Listen silently to a live call (extension)',
  description:
    "A supervisor's monitoring: the phone system's media relay forks both parties' audio to one more receiver, who is not " +
    'heard. Answers an SDP offer (two send-only audio streams, ICE and DTLS-SRTP) for the listening browser to answer with ' +
    '`PUT …/listen/{listenID}`; `DELETE` stops it, and it stops by itself when the call ends. Needs `calls:control` and, ' +
    'for a supervisor, a call in a queue they supervise. A call still ringing answers 409 `call_not_answered`. Providers ' +
    "that cannot answer 501 `not_supported` naming what is missing (`GET /v1/me` says which can, as `canListen`). Starting and " +
    "stopping are written to the service log and the journal's audit trail, as ending a call is.",
  responses: { '200': { description: "The listener's offer", json: listenOfferSchema } },
  problems: ['forbidden', 'not_found', 'call_not_found', 'call_ended', 'call_not_answered', 'listen_refused', 'not_supported', 'provider_error', 'provider_unavailable', 'provider_timeout'],
};

const listenerDoc = (method: 'PUT' | 'DELETE'): RouteDoc =>
  method === 'PUT'
    ? {
        operationId: 'answerListener',
        summary: "A listening browser's SDP answer (extension)",
        description: 'Completes a listener started by `POST …/listen`: the browser\'s SDP answer to its offer. Its audio starts flowing then.',
        body: listenAnswerRequestSchema,
        responses: { '204': { description: 'The media relay took the answer' } },
        problems: ['forbidden', 'not_found', 'call_not_found', 'call_ended', 'listener_not_found', 'listen_refused', 'validation_failed', 'not_supported', 'provider_unavailable'],
      }
    : {
        operationId: 'stopListener',
        summary: 'Stop listening to a call (extension)',
        description: 'Stops a listener; one whose call has ended is stopped already, and answers 204 too.',
        responses: { '204': { description: 'Stopped' } },
        problems: ['forbidden', 'not_found', 'not_supported', 'provider_unavailable'],
      };

/** The listening of a provider that has it, else 501 naming why. */
const listeningOf = (runtime: ProviderRuntime): CallListening => {
  const { listening } = runtime.phoneSystem;
  if (listening) return listening;
  const missing =
    runtime.config.type === 'kamailio'
      ? 'its settings name no media relay (settings.webrtc.rtpengine): calls are forked to a listener by rtpengine'
      : `Callboard does not yet listen to calls of ${runtime.config.type} providers (see the provider table of the docs)`;
  throw new ApiProblem('not_supported', `Provider "${runtime.config.name}" (${runtime.config.type}) cannot listen to calls: ${missing}.`);
};

export const browserPhoneRoutes = async (app: FastifyInstance, { registry, history, clock }: BrowserPhoneRoutesOptions) => {
  app.post(routePatterns.softphoneCredentials, { config: { doc: credentialsDoc } }, async (request: ScopeRequest, reply): Promise<SoftphoneCredentials> => {
    requirePermission(request.principal, 'calls:write');
    const runtime = resolveProvider(registry, request.principal, request.params);
    requireJsonBody(request);
    const body = softphoneCredentialsRequestSchema.safeParse(request.body);
    if (!body.success) throw zodProblem('validation_failed', 'The credentials request is not valid', body.error);
    requireCallerAllowed(request.principal, body.data.providerSubscriberID, runtime.scope);
    const { softphone } = runtime.phoneSystem;
    if (!softphone)
      throw new ApiProblem(
        'not_supported',
        `Provider "${runtime.config.name}" (${runtime.config.type}) has no browser phones${runtime.config.type === 'kamailio' ? ': its settings have no webrtc section' : ''}.`,
      );
    let credentials: SoftphoneCredentials;
    try {
      credentials = softphone.credentials(body.data.providerSubscriberID, clock.now());
    } catch (error) {
      throw domainProblem(error) ?? error;
    }
    request.log.info({ provider: runtime.config.id, subscriber: body.data.providerSubscriberID, ...actorOf(request.principal), expiresAt: credentials.expiresAt }, 'browser phone credentials issued');
    reply.header('cache-control', 'no-store');
    return credentials;
  });

  /** Writes an attempt to the log and the audit trail, then passes its failure on. */
  const audited = async <T>(request: FastifyRequest, runtime: ProviderRuntime, call: ProviderCall, action: 'listen' | 'unlisten', work: () => Promise<T>): Promise<T> => {
    const actor = actorOf(request.principal);
    const at = clock.now();
    const audit = { provider: runtime.config.id, callID: call.callID, ...actor, action };
    try {
      const result = await work();
      request.log.info({ audit: { ...audit, outcome: 'done' } }, action === 'listen' ? 'a supervisor listens to a call' : 'a supervisor stopped listening to a call');
      await history.recordCallAction(runtime.scope, { callID: call.callID, action, ...actor, at, outcome: 'done' });
      return result;
    } catch (error) {
      const outcome = domainProblem(error)?.code ?? 'internal';
      request.log.warn({ audit: { ...audit, outcome } }, action === 'listen' ? 'a listener was not started' : 'a listener was not stopped');
      await history.recordCallAction(runtime.scope, { callID: call.callID, action, ...actor, at, outcome, detail: error instanceof Error ? error.message : String(error) });
      throw error;
    }
  };

  app.post(routePatterns.listen, { config: { doc: listenDoc } }, async (request: CallRequest): Promise<ListenOffer> => {
    requirePermission(request.principal, 'calls:control');
    const { callID, ...scope } = request.params;
    const runtime = resolveProvider(registry, request.principal, scope);
    const listening = listeningOf(runtime);
    const call = await resolveControlledCall(runtime, request.principal, callID, 'listen to calls');
    const offer = await audited(request, runtime, call, 'listen', () => runtime.withDeadline((signal) => listening.start(call, signal)));
    return { callID, ...offer };
  });

  /** A listener and its live call. */
  const listenerCall = async (request: ListenerRequest) => {
    requirePermission(request.principal, 'calls:control');
    const { callID, listenID, ...scope } = request.params;
    const runtime = resolveProvider(registry, request.principal, scope);
    const listening = listeningOf(runtime);
    return { runtime, listening, listenID, call: await resolveControlledCall(runtime, request.principal, callID, 'listen to calls') };
  };

  /** For a stop: none once the call has ended or left the list, whose media (listeners and all) went with it. */
  const listenerCallIfLive = (request: ListenerRequest) =>
    listenerCall(request).catch((error: unknown) => {
      if (error instanceof ApiProblem && (error.code === 'call_ended' || error.code === 'call_not_found')) return undefined;
      throw error;
    });

  // An SDP answer with many candidates outgrows the service's default body limit.
  app.put(routePatterns.listener, { config: { doc: listenerDoc('PUT') }, bodyLimit: LISTEN_ANSWER_BODY_BYTES }, async (request: ListenerRequest, reply) => {
    const { runtime, listening, listenID, call } = await listenerCall(request);
    requireJsonBody(request);
    const body = listenAnswerRequestSchema.safeParse(request.body);
    if (!body.success) throw zodProblem('validation_failed', "The listener's answer is not valid", body.error);
    await runtime.withDeadline((signal) => listening.answer(call, listenID, body.data.sdp, signal));
    return reply.code(204).send();
  });

  app.delete(routePatterns.listener, { config: { doc: listenerDoc('DELETE') } }, async (request: ListenerRequest, reply) => {
    const found = await listenerCallIfLive(request);
    if (found) {
      const { runtime, listening, listenID, call } = found;
      await audited(request, runtime, call, 'unlisten', () => runtime.withDeadline((signal) => listening.stop(call, listenID, signal)));
    }
    return reply.code(204).send();
  });
};
