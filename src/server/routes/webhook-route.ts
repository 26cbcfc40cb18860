/**
 * The webhook providers push call updates to (Twilio's status callbacks): no bearer token, since
 * the provider signs each request instead, so it is capped on its own: a small body, a rate per
 * provider, and a rate of refused requests per source address. A request the provider did not
 * sign is refused before anything is read into the calls.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { routePatterns, type ProviderScope } from '../../contract/paths.js';
import { RateLimiter } from '../auth/rate-limiter.js';
import type { Clock } from '../clock.js';
import { ApiProblem } from '../http/api-problem.js';
import type { RouteDoc } from '../http/route-catalog.js';
import { WebhookRefused, type CallUpdate } from '../providers/phone-system.js';
import type { ProviderRuntimes } from '../runtime/provider-runtimes.js';

/** A status callback is about 1 KiB of form fields. */
export const WEBHOOK_BODY_LIMIT_BYTES = 8 * 1024;
const FORM = 'application/x-www-form-urlencoded';
/** Source addresses whose refused requests are remembered at once; past it, the quiet ones are forgotten first. */
const MAX_TRACKED_ADDRESSES = 10_000;

export interface WebhookRouteOptions {
  registry: ProviderRuntimes;
  clock: Clock;
  /** Requests a minute one provider's webhook takes. */
  perProviderPerMinute: number;
  /** Refused (unsigned, forged) requests a minute from one source address. */
  refusedPerMinute: number;
}

type WebhookRequest = FastifyRequest<{ Params: ProviderScope & { providerType: string }; Body: string }>;

const doc: RouteDoc = {
  operationId: 'receiveProviderWebhook',
  summary: 'Call updates a provider pushes (extension)',
  description:
    "A provider's status callbacks, configured by the service on the calls it places (and by you on a Twilio number or " +
    "TwiML app, see docs/providers.md). No bearer token: the provider signs each request (Twilio: `X-Twilio-Signature`, an " +
    "HMAC-SHA1 with the account's auth token over the URL as configured in `webhookBaseURL` and the form fields), and a " +
    'request that is unsigned or wrongly signed is refused with 403 and changes nothing. A valid update takes effect at ' +
    "once (the change stream carries it); on a cluster any instance may receive it and the sync's leader applies it once. " +
    `Bodies up to ${WEBHOOK_BODY_LIMIT_BYTES / 1024} KiB; a provider's webhook takes \`limits.webhookRequestsPerMinute\` a minute ` +
    '(429 past that). `providerType` is the provider\'s type (`twilio`).',
  public: true,
  parameters: [{ name: 'X-Twilio-Signature', in: 'header', required: true, description: "Twilio's signature of the request", schema: { type: 'string' } }],
  otherBody: { type: FORM, description: "The provider's callback fields, as it posts them (Twilio: CallSid, CallStatus, Timestamp, SequenceNumber, …)" },
  responses: { '204': { description: 'Taken in (applied, or stored for the leader of a cluster)' } },
  problems: ['not_found', 'forbidden', 'invalid_request', 'unsupported_media_type', 'payload_too_large', 'rate_limited', 'service_busy'],
  otherMethods: () => 'Providers POST their callbacks here.',
};

export const webhookRoute = async (app: FastifyInstance, options: WebhookRouteOptions) => {
  const perProvider = new RateLimiter(options.perProviderPerMinute, options.clock);
  const refusals = new RateLimiter(options.refusedPerMinute, options.clock, MAX_TRACKED_ADDRESSES);

  // Every body is kept as it came, as text: the signature covers a form's fields exactly as sent, and the handler names a wrong type.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: WEBHOOK_BODY_LIMIT_BYTES }, (_request, body, done) => done(null, body));

  app.post(routePatterns.webhook, { config: { doc }, bodyLimit: WEBHOOK_BODY_LIMIT_BYTES }, async (request: WebhookRequest, reply) => {
    const { providerType, ...scope } = request.params;
    const runtime = options.registry.get(scope);
    if (!runtime?.phoneSystem.webhook || runtime.config.type !== providerType)
      throw new ApiProblem('not_found', `No ${providerType} provider "${scope.providerID}" takes webhooks here.`);
    if (!/^application\/x-www-form-urlencoded\s*(;|$)/i.test(request.headers['content-type'] ?? ''))
      throw new ApiProblem('unsupported_media_type', `A provider's callback is a form: send "content-type: ${FORM}".`);
    let updates: CallUpdate[];
    try {
      updates = runtime.readWebhook({ url: request.url, headers: request.headers, body: request.body ?? '' });
    } catch (error) {
      if (!(error instanceof WebhookRefused)) throw error;
      request.log.warn({ provider: scope.providerID, reason: error.reason, detail: error.message }, 'webhook request refused');
      if (error.reason === 'malformed') throw new ApiProblem('invalid_request', `The callback cannot be read: ${error.message}.`);
      const decision = refusals.take(request.ip);
      if (!decision.allowed)
        throw new ApiProblem('rate_limited', `Too many unsigned requests came from your address; retry in ${decision.retryAfterSeconds} s.`, {
          headers: { 'retry-after': String(decision.retryAfterSeconds) },
        });
      throw new ApiProblem('forbidden', `The request is not signed by the provider: ${error.message}.`);
    }
    // Counted once signed: requests no one signed cannot use up the provider's own allowance.
    const allowed = perProvider.take(`${scope.accountID}/${scope.applicationID}/${scope.providerID}`);
    if (!allowed.allowed)
      throw new ApiProblem('rate_limited', `This provider's webhook took its ${options.perProviderPerMinute} requests this minute; retry in ${allowed.retryAfterSeconds} s.`, {
        headers: { 'retry-after': String(allowed.retryAfterSeconds) },
      });
    try {
      await runtime.takeUpdates(updates);
    } catch (error) {
      request.log.error({ provider: scope.providerID, reason: (error as Error).message }, 'webhook updates not taken in');
      throw new ApiProblem('service_busy', 'The update could not be taken in just now; send it again.', { headers: { 'retry-after': '1' } });
    }
    request.log.debug({ provider: scope.providerID, updates: updates.length }, 'webhook updates taken in');
    return reply.code(204).send();
  });
};
