/**
 * The dashboard's end of the change stream: one `fetch` read as Server-Sent Events (an
 * EventSource cannot send the token in a header), its events checked against the contract and
 * handed on, reconnection with Last-Event-ID, a dead-stream check, and a fall back to polling
 * when the service or a proxy on the way cannot stream — tried again in the background.
 */
import { agentChangesEventSchema, agentsSnapshotEventSchema, type AgentChangesEvent, type AgentsSnapshotEvent } from '../../../contract/agents.js';
import { queueChangesEventSchema, queuesSnapshotEventSchema, type QueueChangesEvent, type QueuesSnapshotEvent } from '../../../contract/queues.js';
import {
  changesEventSchema,
  snapshotEventSchema,
  statusEventSchema,
  STREAM_DEAD_AFTER_MS,
  STREAM_INCLUDE_PARAM,
  STREAM_PROVIDERS_PARAM,
  STREAM_RETRY_MS,
  type ChangesEvent,
  type SnapshotEvent,
  type StatusEvent,
  type StreamInclude,
} from '../../../contract/call-stream.js';
import { createEventStreamParser, type ServerSentEvent } from '../../../contract/event-stream-parser.js';
import { paths } from '../../../contract/paths.js';
import type { ApiClient } from './api-client.js';
import { ApiError } from './api-error.js';

/** `streaming` once events flow; `polling` while the stream cannot be had (and is retried in the background). */
export type StreamMode = 'connecting' | 'streaming' | 'polling';

export interface StreamState {
  mode: StreamMode;
  /** When the stream last proved alive (any byte, heartbeats included); 0 before. */
  lastByteAt: number;
  /** Why the dashboard polls instead, in words for the freshness indicator. */
  reason?: string;
}

export interface StreamHandlers {
  /** `arrivedAt` is when the event's bytes arrived, before parsing: the start of its trip to the screen. */
  onSnapshot(event: SnapshotEvent, arrivedAt: number): void;
  onChanges(event: ChangesEvent, arrivedAt: number): void;
  onStatus(event: StatusEvent): void;
  /** With `include: ['agents']`: a provider's whole agent board, then what changed in it. */
  onAgents?(event: AgentsSnapshotEvent, arrivedAt: number): void;
  onAgentChanges?(event: AgentChangesEvent, arrivedAt: number): void;
  /** With `include: ['queues']`: a provider's queues whole, then the queues that changed. */
  onQueues?(event: QueuesSnapshotEvent): void;
  onQueueChanges?(event: QueueChangesEvent): void;
  /** The bytes of an event arrived (before parsing), for the performance marks. */
  onArrival?(): void;
}

export interface CallStreamTarget {
  accountID: string;
  applicationID: string;
  providers: readonly string[];
  /** What the stream carries besides the calls. */
  include?: readonly StreamInclude[];
}

/**
 * Failures in a row of a stream that was flowing before the dashboard polls instead (a drop is
 * usually over at the next try). A stream that never flowed in this run is polled around at once.
 */
const FAILURES_BEFORE_POLLING = 3;
/** Calls on screen must not wait on a stream that is slow to start: the list is polled meanwhile. */
const POLL_WHILE_STARTING_AFTER_MS = 2_500;
/** While polling, how often the stream is tried again. */
const RETRY_WHILE_POLLING_MS = 30_000;
/** A stream whose first event does not come this soon is held back by something on the way. */
const FIRST_EVENT_WITHIN_MS = 10_000;

/**
 * Answers that retrying soon cannot change: no stream at all (a service that implements the spec
 * only), or a refused token, which the polled list then reports through the usual sign-in flow.
 */
const polledAtOnce = (error: unknown) => error instanceof ApiError && [401, 403, 404, 405, 501].includes(error.status ?? 0);

/** Signs of life are recorded at most this often, so a busy stream does not re-render for each chunk. */
const ALIVE_RESOLUTION_MS = 1_000;

const describeFailure = (error: unknown): string =>
  error instanceof ApiError
    ? error.detail
    : error instanceof Error && error.message
      ? error.message
      : 'the stream was interrupted';

class StreamInterrupted extends Error {}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

export class CallStream {
  private state: StreamState = { mode: 'connecting', lastByteAt: 0 };
  private readonly listeners = new Set<() => void>();
  /** The current run's switch; a stopped stream can start again and resume where it was. */
  private stopped = new AbortController();
  private lastEventID = '';
  private failures = 0;
  private retryMs = STREAM_RETRY_MS;
  private active = false;
  /** Whether events flowed in this run: until then, any failure means polling. */
  private flowed = false;

  constructor(
    private readonly client: ApiClient,
    private readonly target: CallStreamTarget,
    private readonly handlers: StreamHandlers,
  ) {}

  /** Opens the stream; after a stop it resumes with Last-Event-ID when `canResume` says the data is still held. */
  start(canResume: () => boolean = () => true): void {
    if (this.active) return;
    this.active = true;
    if (!canResume()) this.lastEventID = '';
    this.stopped = new AbortController();
    this.failures = 0;
    this.flowed = false;
    // A resumed stream catches up within a moment: what it showed does not turn stale meanwhile.
    if (this.state.mode === 'streaming') this.setState({ lastByteAt: Date.now() });
    void this.run(this.stopped.signal);
  }

  stop(): void {
    this.active = false;
    this.stopped.abort();
  }

  getState = (): StreamState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private setState(next: Partial<StreamState>): void {
    this.state = { ...this.state, ...next };
    for (const listener of this.listeners) listener();
  }

  private async run(stopped: AbortSignal): Promise<void> {
    while (!stopped.aborted) {
      try {
        await this.connectOnce(stopped);
        // The server ended the stream (a restart, a drop): come back soon, where we were.
        this.failures = 0;
        await sleep(this.retryMs, stopped);
      } catch (error) {
        if (stopped.aborted) return;
        this.failures += 1;
        const final = polledAtOnce(error);
        if (final || !this.flowed || this.failures >= FAILURES_BEFORE_POLLING)
          this.setState({ mode: 'polling', reason: describeFailure(error) });
        const backoff = Math.min(RETRY_WHILE_POLLING_MS, this.retryMs * 2 ** (this.failures - 1)) * (0.8 + Math.random() * 0.4);
        await sleep(final ? RETRY_WHILE_POLLING_MS : backoff, stopped);
      }
    }
  }

  private async connectOnce(stopped: AbortSignal): Promise<void> {
    const attempt = new AbortController();
    const abortAttempt = () => attempt.abort();
    stopped.addEventListener('abort', abortAttempt);
    let watchdog: ReturnType<typeof setTimeout> | undefined;
    let starting: ReturnType<typeof setTimeout> | undefined;
    let interruption: Error | undefined;
    const interrupt = (why: string) => {
      interruption = new StreamInterrupted(why);
      attempt.abort();
    };
    const armWatchdog = (ms: number, why: string) => {
      clearTimeout(watchdog);
      watchdog = setTimeout(() => interrupt(why), ms);
    };
    let sawEvent = false;
    if (this.state.mode !== 'polling')
      starting = setTimeout(() => {
        if (!sawEvent) this.setState({ mode: 'polling', reason: 'the stream is slow to start' });
      }, POLL_WHILE_STARTING_AFTER_MS);
    try {
      const include = this.target.include?.length ? `&${STREAM_INCLUDE_PARAM}=${this.target.include.join(',')}` : '';
      const query = `?${STREAM_PROVIDERS_PARAM}=${this.target.providers.map(encodeURIComponent).join(',')}${include}`;
      const response = await this.client.openStream(
        `${paths.callStream(this.target)}${query}`,
        this.lastEventID ? { 'last-event-id': this.lastEventID } : {},
        attempt.signal,
      );
      if (!response.headers.get('content-type')?.startsWith('text/event-stream') || !response.body)
        throw new ApiError('http_error', 'the service answered the stream with something other than events', 501);
      armWatchdog(FIRST_EVENT_WITHIN_MS, 'no event arrived: something on the way holds the stream back');

      await this.read(
        response.body,
        attempt.signal,
        (event) => {
          if (!sawEvent) {
            sawEvent = true;
            this.flowed = true;
            this.failures = 0;
            this.setState({ mode: 'streaming', reason: undefined });
          }
          this.dispatch(event);
        },
        () =>
          armWatchdog(
            sawEvent ? STREAM_DEAD_AFTER_MS : FIRST_EVENT_WITHIN_MS,
            sawEvent ? 'the stream went silent' : 'no event arrived: something on the way holds the stream back',
          ),
      );
    } catch (error) {
      throw interruption ?? error;
    } finally {
      clearTimeout(watchdog);
      clearTimeout(starting);
      stopped.removeEventListener('abort', abortAttempt);
    }
    if (interruption) throw interruption;
  }

  private async read(
    body: ReadableStream<Uint8Array>,
    signal: AbortSignal,
    onEvent: (event: ServerSentEvent) => void,
    onBytes: () => void,
  ): Promise<void> {
    const parser = createEventStreamParser();
    const decoder = new TextDecoder();
    const reader = body.getReader();
    signal.addEventListener('abort', () => void reader.cancel().catch(() => undefined));
    for (;;) {
      const { done, value } = await reader.read();
      if (done || signal.aborted) return;
      const now = Date.now();
      if (now - this.state.lastByteAt >= ALIVE_RESOLUTION_MS) this.setState({ lastByteAt: now });
      onBytes();
      const events = parser.push(decoder.decode(value, { stream: true }));
      if (parser.retryMs !== undefined) this.retryMs = parser.retryMs;
      if (events.length > 0) this.handlers.onArrival?.();
      for (const event of events) onEvent(event);
    }
  }

  /** Checks an event against the contract and hands it on; a malformed one starts the stream over. */
  private dispatch(event: ServerSentEvent): void {
    const arrivedAt = Date.now();
    const schema =
      event.event === 'snapshot'
        ? snapshotEventSchema
        : event.event === 'changes'
          ? changesEventSchema
          : event.event === 'status'
            ? statusEventSchema
            : event.event === 'agents'
              ? agentsSnapshotEventSchema
              : event.event === 'agent-changes'
                ? agentChangesEventSchema
                : event.event === 'queues'
                  ? queuesSnapshotEventSchema
                  : event.event === 'queue-changes'
                    ? queueChangesEventSchema
                    : undefined;
    if (!schema) return;
    const parsed = schema.safeParse(JSON.parse(event.data));
    if (!parsed.success) {
      // Resuming would replay the same event: start over from a snapshot.
      this.lastEventID = '';
      throw new ApiError(
        'invalid_response',
        `A ${event.event} event does not match the API: ${parsed.error.issues[0]?.message ?? 'unknown shape'}.`,
      );
    }
    if (event.event === 'snapshot') this.handlers.onSnapshot(parsed.data as SnapshotEvent, arrivedAt);
    else if (event.event === 'changes') this.handlers.onChanges(parsed.data as ChangesEvent, arrivedAt);
    else if (event.event === 'status') this.handlers.onStatus(parsed.data as StatusEvent);
    else if (event.event === 'agents') this.handlers.onAgents?.(parsed.data as AgentsSnapshotEvent, arrivedAt);
    else if (event.event === 'agent-changes') this.handlers.onAgentChanges?.(parsed.data as AgentChangesEvent, arrivedAt);
    else if (event.event === 'queues') this.handlers.onQueues?.(parsed.data as QueuesSnapshotEvent);
    else this.handlers.onQueueChanges?.(parsed.data as QueueChangesEvent);
    this.lastEventID = event.id;
  }
}
