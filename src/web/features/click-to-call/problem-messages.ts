/** Turns a failed make-call into words an agent can act on; the code stays visible for support. */
import type { ApiError, ApiErrorCode } from '../../lib/api/api-error.js';

export interface ProblemContext {
  /** The provider the call went through, by name. */
  providerName: string;
  /** Who places the call: a name, or the subscriber ID typed by hand. */
  callerName: string;
}

export interface ProblemMessage {
  title: string;
  hint?: string;
}

const RETRY_IS_SAFE = 'Retry is safe (it will not ring twice).';
const DASHBOARD_BUG = 'This dashboard sent something the service does not accept; please report it with the code below.';

/** A request this dashboard should not have sent, or not as a call placement. */
const refusedRequest = (error: ApiError): ProblemMessage => ({ title: 'The service refused the request', hint: `${error.detail} ${DASHBOARD_BUG}` });

const seconds = (ms: number | undefined) => (ms === undefined ? undefined : Math.max(1, Math.ceil(ms / 1000)));

/** One entry per code, so a new code cannot ship without its own message. */
const messages: Record<ApiErrorCode, (error: ApiError, context: ProblemContext) => ProblemMessage> = {
  subscriber_not_registered: (error) => ({
    title: error.detail,
    hint: 'Ask them to sign in on their phone, or choose another subscriber.',
  }),
  subscriber_inactive: (error) => ({
    title: error.detail,
    hint: 'Their account must be enabled again before they can place calls; choose another subscriber.',
  }),
  subscriber_not_found: (error) => ({ title: error.detail, hint: 'Check the subscriber ID, or choose someone from the list.' }),
  subscriber_mismatch: (error) => ({ title: error.detail, hint: 'Choose the subscriber again from the list.' }),
  subscriber_unreachable: (error) => ({
    title: error.detail,
    hint: "Their device's address in the provider's settings may be wrong; choose another subscriber, and tell an administrator.",
  }),
  remote_number_rejected: (error) => ({
    title: error.detail,
    hint: 'Your call was not placed. Check the number, with its country code; some destinations are not allowed for this account.',
  }),
  validation_failed: (error) => ({
    title: 'The service refused some of the call details',
    hint: error.fieldErrors.length > 0 ? 'See the fields marked below.' : error.detail,
  }),
  rate_limited: (error) => {
    const wait = seconds(error.retryAfterMs);
    return {
      title: wait === undefined ? 'Too many calls: wait a moment, then try again' : `Too many calls: try again in ${wait} s`,
      hint: 'Your call was not placed.',
    };
  },
  too_many_idempotency_keys: (error) => {
    const wait = seconds(error.retryAfterMs);
    return {
      title: 'Your call was not placed: this application has placed as many keyed calls as it may in 24 hours',
      hint: `${wait === undefined ? 'Try again later' : `Try again in ${wait} s`}, when the oldest call key expires; an administrator can raise the limit.`,
    };
  },
  too_many_concurrent_requests: () => ({
    title: 'Your token has too many requests under way: your call was not placed',
    hint: `Other screens signed in with this token are busy; try again in a moment. ${RETRY_IS_SAFE}`,
  }),
  service_busy: () => ({
    title: 'The service is busy: your call was not placed',
    hint: `Try again in a moment. ${RETRY_IS_SAFE}`,
  }),
  request_timeout: () => ({
    title: 'The request reached the service too slowly: your call was not placed',
    hint: `Check your network connection, then try again. ${RETRY_IS_SAFE}`,
  }),
  provider_unavailable: (_error, { providerName }) => ({
    title: `${providerName} is unreachable right now`,
    hint: `Your call was not placed. Try again in a moment. ${RETRY_IS_SAFE}`,
  }),
  provider_timeout: (_error, { providerName, callerName }) => ({
    title: `${providerName} is slow: it did not confirm the call in time`,
    // The outcome is unknown; the next click is a new attempt, so the agent checks first.
    hint: `The call may or may not have been placed: check whether ${callerName}'s phone is ringing before you try again.`,
  }),
  provider_error: (error, { providerName }) => ({
    title: `${providerName} is failing: it refused the call with an error`,
    hint: error.detail,
  }),
  forbidden: () => ({
    title: 'Your token may not place calls',
    hint: 'It lacks the calls:write permission: ask an administrator for a token that has it.',
  }),
  csrf_failed: () => ({
    title: 'The call was refused as a cross-site request',
    hint: 'Reload the page and place the call again; if it keeps happening, sign out and in again.',
  }),
  subscriber_not_allowed: (error) => ({
    title: 'Your token places calls only as its own subscriber: nothing was placed',
    hint: `${error.detail} Reload the page to see whom you place calls as.`,
  }),
  unauthorized: () => ({
    title: 'The service no longer accepts your sign-in',
    hint: 'Sign out, then sign in again with a valid token.',
  }),
  not_found: (error, { providerName }) => ({ title: `${providerName} is not available to your token`, hint: error.detail }),
  idempotency_key_reused: () => ({
    title: 'The service took this for a different call',
    hint: 'Nothing was placed. Press "Place call" again to send it as a new call.',
  }),
  network_unreachable: () => ({ title: 'Cannot reach the service: your call was not placed', hint: RETRY_IS_SAFE }),
  cors_blocked: (error) => ({ title: 'The service blocks this page (CORS)', hint: error.detail }),
  internal: () => ({
    title: 'The service failed while placing the call',
    hint: `Try again; if it keeps failing, contact support with the code below. ${RETRY_IS_SAFE}`,
  }),
  http_error: (error) => ({
    title: 'The service answered with an unexpected error',
    hint: (error.status ?? 0) >= 500 ? `${error.detail}. ${RETRY_IS_SAFE}` : error.detail,
  }),
  invalid_response: (error) => ({
    title: 'The service answered in a way this dashboard does not understand',
    hint: error.detail,
  }),
  invalid_request: refusedRequest,
  unsupported_media_type: refusedRequest,
  payload_too_large: refusedRequest,
  method_not_allowed: refusedRequest,
  headers_too_large: refusedRequest,
  // Streams and heavy reads are never what placing a call asks for.
  too_many_streams: refusedRequest,
  too_many_heavy_queries: refusedRequest,
  // Ending a call is another request than placing one.
  call_not_found: refusedRequest,
  call_ended: refusedRequest,
  call_not_endable: refusedRequest,
  call_not_answered: refusedRequest,
  listener_not_found: refusedRequest,
  listen_refused: refusedRequest,
  not_supported: refusedRequest,
};

export const describeCallProblem = (error: ApiError, context: ProblemContext): ProblemMessage =>
  messages[error.code](error, context);
