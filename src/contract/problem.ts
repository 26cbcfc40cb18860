/** The service's common error set (RFC 9457 problem details) and its stable error codes. */
import { z } from 'zod';

export const problemCodes = {
  unauthorized: 401,
  forbidden: 403,
  csrf_failed: 403,
  subscriber_not_allowed: 403,
  not_found: 404,
  method_not_allowed: 405,
  invalid_request: 400,
  validation_failed: 400,
  unsupported_media_type: 415,
  payload_too_large: 413,
  subscriber_not_found: 409,
  subscriber_not_registered: 409,
  subscriber_inactive: 409,
  subscriber_mismatch: 409,
  subscriber_unreachable: 409,
  remote_number_rejected: 422,
  idempotency_key_reused: 409,
  call_not_found: 404,
  call_ended: 409,
  call_not_endable: 409,
  call_not_answered: 409,
  listener_not_found: 404,
  listen_refused: 409,
  not_supported: 501,
  request_timeout: 408,
  headers_too_large: 431,
  rate_limited: 429,
  too_many_concurrent_requests: 429,
  too_many_streams: 429,
  too_many_heavy_queries: 429,
  too_many_idempotency_keys: 429,
  service_busy: 503,
  provider_error: 502,
  provider_unavailable: 503,
  provider_timeout: 504,
  internal: 500,
} as const;

export type ProblemCode = keyof typeof problemCodes;
export const problemCodeList = Object.keys(problemCodes) as [ProblemCode, ...ProblemCode[]];

export const problemTitles: Record<ProblemCode, string> = {
  unauthorized: 'Authentication required',
  forbidden: 'Permission denied',
  csrf_failed: 'Cross-site request refused',
  subscriber_not_allowed: 'Subscriber not allowed for this token',
  not_found: 'Not found',
  method_not_allowed: 'Method not allowed',
  invalid_request: 'Invalid request',
  validation_failed: 'Validation failed',
  unsupported_media_type: 'Unsupported media type',
  payload_too_large: 'Payload too large',
  subscriber_not_found: 'Subscriber not found',
  subscriber_not_registered: 'Subscriber not registered',
  subscriber_inactive: 'Subscriber inactive',
  subscriber_mismatch: 'Subscriber details do not match',
  subscriber_unreachable: "Subscriber's device refused",
  remote_number_rejected: 'Number refused by the provider',
  idempotency_key_reused: 'Idempotency key reused',
  call_not_found: 'Call not found',
  call_ended: 'Call already ended',
  call_not_endable: 'The provider cannot end this call',
  call_not_answered: 'The call is not answered yet',
  listener_not_found: 'No such listener',
  listen_refused: 'The media relay refused the listener',
  not_supported: 'Not supported by this provider',
  request_timeout: 'Request timeout',
  headers_too_large: 'Request headers too large',
  rate_limited: 'Too many requests',
  too_many_concurrent_requests: 'Too many requests in flight',
  too_many_streams: 'Too many open streams',
  too_many_heavy_queries: 'Too many heavy queries',
  too_many_idempotency_keys: 'Too many idempotency keys',
  service_busy: 'Service busy',
  provider_error: 'Provider error',
  provider_unavailable: 'Provider unavailable',
  provider_timeout: 'Provider timeout',
  internal: 'Internal error',
};

/** The `type` URI of a problem: stable, and documented in the OpenAPI document. */
export const problemType = (code: ProblemCode): string => `urn:callboard:problem:${code}`;

export const fieldErrorSchema = z.object({ field: z.string(), message: z.string() });
export type FieldError = z.infer<typeof fieldErrorSchema>;

export const problemSchema = z.object({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  detail: z.string(),
  code: z.enum(problemCodeList),
  errors: z.array(fieldErrorSchema).optional(),
}).meta({ id: 'Problem' });
export type Problem = z.infer<typeof problemSchema>;

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';
