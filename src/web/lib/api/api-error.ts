/** Errors as values on the client: the same `code` the service's problem carries, plus transport failures. */
import { problemSchema, type FieldError, type ProblemCode } from '../../../contract/problem.js';

export type ClientErrorCode = 'network_unreachable' | 'cors_blocked' | 'invalid_response' | 'http_error';
export type ApiErrorCode = ProblemCode | ClientErrorCode;

export class ApiError extends Error {
  constructor(
    readonly code: ApiErrorCode,
    readonly detail: string,
    readonly status?: number,
    readonly options: { errors?: FieldError[]; retryAfterMs?: number } = {},
  ) {
    super(detail);
    this.name = 'ApiError';
  }

  get retryAfterMs(): number | undefined {
    return this.options.retryAfterMs;
  }

  get fieldErrors(): FieldError[] {
    return this.options.errors ?? [];
  }
}

declare module '@tanstack/react-query' {
  interface Register {
    /** The API client fails with nothing else (see ApiClient), so no query or mutation needs to cast its error. */
    defaultError: ApiError;
  }
}

/** Retry-After in seconds or as an HTTP date. */
export const parseRetryAfter = (header: string | null, now = Date.now()): number | undefined => {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
};

/** A problem's `detail`, when the body is a problem whose code this dashboard does not know yet (a newer service's). */
const detailOf = (body: unknown): string | undefined => {
  const detail = typeof body === 'object' && body !== null ? (body as { detail?: unknown }).detail : undefined;
  return typeof detail === 'string' && detail !== '' ? detail : undefined;
};

const parseJSON = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

export const errorFromResponse = async (response: Response): Promise<ApiError> => {
  const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
  const body = parseJSON(await response.text().catch(() => ''));
  const problem = problemSchema.safeParse(body);
  if (problem.success)
    return new ApiError(problem.data.code, problem.data.detail, response.status, { errors: problem.data.errors, retryAfterMs });
  const detail = detailOf(body) ?? `The service answered ${response.status} ${response.statusText}`.trim();
  return new ApiError('http_error', detail, response.status, { retryAfterMs });
};
