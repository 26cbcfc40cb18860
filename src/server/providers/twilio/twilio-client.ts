/**
 * A small client of Twilio's REST API (2010-04-01) for the Calls, Queue and Member resources: HTTP basic auth with
 * the account SID and auth token, form-encoded requests, JSON answers, Twilio's errors turned into
 * ProviderFailure (a 429 / 20429 asks the caller to hold off, longer at each one in a row), and
 * paging within a budget of requests.
 */
import { setTimeout } from 'node:timers/promises';
import { ProviderFailure } from '../phone-system.js';

/** The fields of Twilio's Call resource the service reads (`api.v2010.account.call`). */
export interface TwilioCall {
  sid: string;
  parent_call_sid: string | null;
  date_created: string | null;
  date_updated: string | null;
  to: string | null;
  from: string | null;
  status: TwilioCallStatus;
  start_time: string | null;
  end_time: string | null;
  duration: string | null;
  direction: string | null;
  caller_name: string | null;
}

/** Twilio's `call_enum_status`. */
export const TWILIO_CALL_STATUSES = ['queued', 'ringing', 'in-progress', 'completed', 'busy', 'failed', 'no-answer', 'canceled'] as const;
export type TwilioCallStatus = (typeof TWILIO_CALL_STATUSES)[number];
export const LIVE_STATUSES = ['queued', 'ringing', 'in-progress'] as const satisfies readonly TwilioCallStatus[];

/** The fields of Twilio's Queue resource the service reads (`api.v2010.account.queue`). */
export interface TwilioQueue {
  sid: string | null;
  friendly_name: string | null;
  current_size: number;
}

/** The fields of Twilio's Member resource the service reads (`api.v2010.account.queue.member`): a call waiting in a queue. */
export interface TwilioMember {
  call_sid: string | null;
}

/** A page of a list: its items under the resource's own key (`calls`, `queues`, `queue_members`), and the next page's path. */
type Page<Key extends string, T> = Record<Key, T[]> & { next_page_uri: string | null };

/** Twilio's error body. */
interface TwilioErrorBody {
  code?: number;
  message?: string;
  more_info?: string;
  status?: number;
}

/** Twilio refused a request (a 4xx other than a rate limit): its status, error code and message. */
export class TwilioRefusal extends Error {
  constructor(
    readonly status: number,
    readonly code: number | undefined,
    readonly twilioMessage: string,
  ) {
    super(`Twilio answered ${status}${code === undefined ? '' : ` (error ${code})`}: ${twilioMessage}`);
    this.name = 'TwilioRefusal';
  }
}

export interface TwilioClientOptions {
  accountSid: string;
  authToken: string;
  apiBaseURL: string;
}

/** Form fields; an array repeats the field (as Twilio's `StatusCallbackEvent`). */
export type FormFields = Record<string, string | readonly string[] | undefined>;

const RATE_LIMIT_FIRST_MS = 1000;
const RATE_LIMIT_MAX_MS = 60_000;

const formBody = (fields: FormFields): URLSearchParams => {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    for (const one of typeof value === 'string' ? [value] : value) body.append(name, one);
  }
  return body;
};

export class TwilioClient {
  private readonly authorization: string;
  private readonly accountPath: string;
  private readonly callsPath: string;
  /** Paths (and Twilio's page links) are absolute from the API's root, which may sit under a prefix. */
  private readonly base: string;
  /** Rate limits answered in a row: each one holds off twice as long as the one before. */
  private limitedInARow = 0;
  /** Requests sent, for the figures of how many a sync costs. */
  requests = 0;

  constructor(private readonly options: TwilioClientOptions) {
    this.authorization = `Basic ${Buffer.from(`${options.accountSid}:${options.authToken}`).toString('base64')}`;
    this.accountPath = `/2010-04-01/Accounts/${options.accountSid}`;
    this.callsPath = `${this.accountPath}/Calls`;
    this.base = options.apiBaseURL.replace(/\/+$/, '');
  }

  /** `POST .../Calls.json`: creates a call; answers its resource. */
  createCall(fields: FormFields, signal: AbortSignal): Promise<TwilioCall> {
    return this.send<TwilioCall>('POST', `${this.callsPath}.json`, signal, formBody(fields));
  }

  /** `GET .../Calls/{Sid}.json`: one call's resource. */
  fetchCall(sid: string, signal: AbortSignal): Promise<TwilioCall> {
    return this.send<TwilioCall>('GET', `${this.callsPath}/${encodeURIComponent(sid)}.json`, signal);
  }

  /** `POST .../Calls/{Sid}.json`: changes a live call (its `Status`, to end it); answers its resource. */
  updateCall(sid: string, fields: FormFields, signal: AbortSignal): Promise<TwilioCall> {
    return this.send<TwilioCall>('POST', `${this.callsPath}/${encodeURIComponent(sid)}.json`, signal, formBody(fields));
  }

  /**
   * Every page of `GET .../Calls.json` with these filters, within `budget` requests (`pauseMs`
   * apart); past it the list is incomplete, which is a failure: a partial list would end calls
   * that are still live.
   */
  listCalls(query: Record<string, string>, budget: { left: number }, signal: AbortSignal, pauseMs = 0): Promise<TwilioCall[]> {
    const path = `${this.callsPath}.json?${new URLSearchParams({ ...query, PageSize: '1000' }).toString()}`;
    return this.every(path, 'calls', budget, signal, { fail: 'calls' }, pauseMs);
  }

  /** The pages of `GET .../Queues.json` that `budget` allows: the account's queues (a queue left out only leaves its callers' queue to their number). */
  listQueues(budget: { left: number }, signal: AbortSignal): Promise<TwilioQueue[]> {
    return this.every(`${this.accountPath}/Queues.json?PageSize=1000`, 'queues', budget, signal, 'keep');
  }

  /** The pages of `GET .../Queues/{QueueSid}/Members.json` that `budget` allows: the calls waiting in the queue, first come first. */
  listMembers(queueSid: string, budget: { left: number }, signal: AbortSignal): Promise<TwilioMember[]> {
    return this.every(`${this.accountPath}/Queues/${encodeURIComponent(queueSid)}/Members.json?PageSize=1000`, 'queue_members', budget, signal, 'keep');
  }

  /**
   * Every page from `path` on, following `next_page_uri`, within `budget` requests; past it, a
   * failure naming what was listed, or (`keep`) the pages read so far.
   */
  private async every<Key extends string, T>(
    path: string,
    key: Key,
    budget: { left: number },
    signal: AbortSignal,
    over: { fail: string } | 'keep',
    pauseMs = 0,
  ): Promise<T[]> {
    const items: T[] = [];
    let next: string | null = path;
    for (let pages = 0; next; pages += 1) {
      if (pages > 0 && pauseMs > 0) await setTimeout(pauseMs, undefined, { signal });
      if (budget.left <= 0) {
        if (over === 'keep') break;
        throw new ProviderFailure('error', `Twilio lists more ${over.fail} than the service reads in one sync (its budget of requests ran out)`);
      }
      budget.left -= 1;
      const page: Page<Key, T> = await this.send<Page<Key, T>>('GET', next, signal);
      items.push(...page[key]);
      next = page.next_page_uri;
    }
    return items;
  }

  private async send<T>(method: 'GET' | 'POST', path: string, signal: AbortSignal, body?: URLSearchParams): Promise<T> {
    this.requests += 1;
    let response: Response;
    try {
      response = await fetch(`${this.base}${path}`, {
        method,
        headers: { authorization: this.authorization, accept: 'application/json', ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
        ...(body ? { body } : {}),
        signal,
      });
    } catch (error) {
      if (signal.aborted) throw signal.reason ?? error;
      throw new ProviderFailure('unavailable', `Twilio cannot be reached at ${this.options.apiBaseURL}: ${(error as Error).cause ?? (error as Error).message}`);
    }
    const text = await response.text();
    if (response.ok) {
      this.limitedInARow = 0;
      try {
        return JSON.parse(text) as T;
      } catch {
        throw new ProviderFailure('error', `Twilio answered ${response.status} with a body that is not JSON`);
      }
    }
    throw this.failure(response, text);
  }

  private failure(response: Response, text: string): Error {
    let error: TwilioErrorBody = {};
    try {
      error = JSON.parse(text) as TwilioErrorBody;
    } catch {
      // Not Twilio's JSON (a proxy's page, say): the status speaks for it.
    }
    const message = error.message ?? response.statusText;
    if (response.status === 429 || error.code === 20429) {
      this.limitedInARow += 1;
      const backoff = Math.min(RATE_LIMIT_MAX_MS, RATE_LIMIT_FIRST_MS * 2 ** (this.limitedInARow - 1));
      const asked = Number(response.headers.get('retry-after')) * 1000;
      const retryAfterMs = Math.max(backoff, Number.isFinite(asked) ? asked : 0);
      return new ProviderFailure('unavailable', `Twilio is limiting this account's requests (error ${error.code ?? 20429}); asking again in ${Math.ceil(retryAfterMs / 1000)} s`, undefined, retryAfterMs);
    }
    this.limitedInARow = 0;
    if (response.status === 401 || response.status === 403)
      return new ProviderFailure('error', `Twilio refused the account's credentials (error ${error.code ?? response.status}: ${message}): check accountSid and authToken`);
    if (response.status >= 500) return new ProviderFailure(response.status === 503 ? 'unavailable' : 'error', `Twilio answered ${response.status}: ${message}`);
    return new TwilioRefusal(response.status, error.code, message);
  }
}
