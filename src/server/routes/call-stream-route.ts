/**
 * The change stream (our extension): one Server-Sent Events response per dashboard tab for the
 * application's providers it names. Per provider, a snapshot of its list, then each change as the
 * sync loop numbers it, and its health when that changes; `Last-Event-ID` resumes with only the
 * changes since, or a fresh snapshot where that is impossible.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { STREAM_HEARTBEAT_MS, STREAM_RETRY_MS, streamQuerySchema } from '../../contract/call-stream.js';
import { routePatterns, type ProviderScope } from '../../contract/paths.js';
import type { AgentBoard } from '../agents/agent-board.js';
import type { QueueBoard } from '../queues/queue-board.js';
import type { ChangeEntry, LogPosition } from '../calls/change-log.js';
import type { CallsView, PositionedSnapshot, ProviderStatus, SyncEvent } from '../calls/live-calls.js';
import type { CallSnapshot } from '../calls/call-snapshot.js';
import { snapshotDataAround, statusData } from '../calls/stream-data.js';
import { domainProblem } from '../http/domain-problems.js';
import { EventStream, SharedText } from '../http/event-stream.js';
import type { RouteDoc } from '../http/route-catalog.js';
import { API_SECURITY_HEADERS } from '../http/security-headers-plugin.js';
import { zodProblem } from '../http/zod-problem.js';
import type { ProviderRuntime, ProviderRuntimes } from '../runtime/provider-runtimes.js';
import { parseStreamCursor, StreamCursor } from './stream-cursor.js';
import { resolveQueueSelection, visibleQueueIDs, visibleSubscribers } from './queue-filter.js';
import { requirePermission, resolveProvider } from './resolve-provider.js';
import { agentsView, callsView, queuesView, type StreamView } from './stream-views.js';
import type { QueueSelection } from '../queues/queue-selection.js';

/** A reader this far behind is dropped; it resumes with Last-Event-ID. Room for one snapshot of a large center. */
export const MAX_STREAM_BUFFER_BYTES = 16 * 1024 * 1024;

export interface CallStreamOptions {
  registry: ProviderRuntimes;
  heartbeatMs?: number;
  maxBufferedBytes?: number;
}

type StreamRequest = FastifyRequest<{ Params: Omit<ProviderScope, 'providerID'>; Querystring: Record<string, string> }>;

const doc: RouteDoc = {
  operationId: 'streamCalls',
  summary: 'Live changes of the calls of some providers, pushed (extension)',
  description:
    'Server-Sent Events. For each provider of `providers`: a `snapshot` event with its whole list, then a `changes` event ' +
    'for each sync that changed anything (records added or changed in full, call IDs that left the list), and a `status` ' +
    'event when the provider starts failing, when its last snapshot grows too old to serve (`available: false`, with the ' +
    'problem a list would answer), and when it recovers. Applying a snapshot and then its changes in order gives exactly ' +
    "what the list answers. Every event's `id` is an opaque cursor over all the stream's providers: reconnect with " +
    '`Last-Event-ID` to receive only the changes since, or a fresh snapshot for a provider whose changes are no longer ' +
    `kept (about 10 minutes) or come from another service instance. A comment line every ${STREAM_HEARTBEAT_MS / 1000} s ` +
    'shows the stream is alive. Same token rules as the list (`calls:read`; a provider the token may not see is a 404 ' +
    'before any event). Gzipped when the client accepts it, each event flushed whole. Streams are counted apart from ' +
    'requests in flight: each token may hold a few open at once (`limits.streamsPerToken`, 8 by default), past that ' +
    '`429 too_many_streams`; past the service\'s total, `503 service_busy`. With `include=agents`, each provider\'s agent ' +
    'board too: an `agents` event with the whole board (as `GET .../agents` answers it) once the provider has listed its ' +
    'subscribers, then an `agent-changes` event with the agents whose record changed, in full, the IDs that left, and the ' +
    'new totals; resumed by the same cursor. A stream that does not ask for agents never carries them. With `include=queues`, ' +
    "each provider's queues: a `queues` event with the figures `GET .../queues` answers, then a `queue-changes` event with the " +
    'queues whose figures changed, in full, and the calls in no queue; `longestWaitSeconds` alone moving with the clock is no ' +
    'change (it is `figuresAt` − `oldestWaitingSince`). Resumed by the same cursor.',
  parameters: [
    {
      name: 'providers',
      in: 'query',
      required: true,
      description: 'Comma-separated provider IDs of this application',
      schema: { type: 'string' },
    },
    {
      name: 'include',
      in: 'query',
      description: 'What to carry besides the calls, comma-separated: `agents` (the agent board of each provider), `queues` (the figures of its queues)',
      schema: { type: 'string' },
    },
    { name: 'Last-Event-ID', in: 'header', description: 'The last event ID received, to resume', schema: { type: 'string' } },
  ],
  responses: {
    '200': {
      description:
        'Events `snapshot` (data: StreamSnapshotEvent), `changes` (StreamChangesEvent) and `status` (StreamStatusEvent), ' +
        'with `include=agents` `agents` (StreamAgentsEvent) and `agent-changes` (StreamAgentChangesEvent), with `include=queues` ' +
        '`queues` (StreamQueuesEvent) and `queue-changes` (StreamQueueChangesEvent), ' +
        'each with one line of JSON data; the schemas are in the components',
      content: {
        type: 'text/event-stream',
        description: 'event: snapshot | changes | status | agents | agent-changes | queues | queue-changes; id: cursor; data: JSON',
      },
    },
  },
  problems: ['forbidden', 'not_found', 'invalid_request', 'too_many_streams', 'service_busy'],
  otherMethods: () => 'The stream is read with GET.',
};

/**
 * A snapshot's records as every stream sends them: serialized and compressed once per list of
 * calls, not once per stream (a hundred tabs opening at 10,000 calls cost 84 ms of the event loop each).
 */
const sharedSnapshots = new WeakMap<object, SharedText>();
const sharedCalls = (snapshot: CallSnapshot): SharedText => {
  let text = sharedSnapshots.get(snapshot.sameCalls);
  if (!text) {
    text = new SharedText(snapshot.callsJSON());
    sharedSnapshots.set(snapshot.sameCalls, text);
  }
  return text;
};

/**
 * How long a snapshot already compressed is sent to newly opened streams, followed by the changes
 * since it. At 10,000 calls changing 5 % a second the list has a new version several times a
 * second; compressing each for the tabs opening on it cost 41 ms of the event loop a version.
 */
export const SNAPSHOT_REUSE_MS = 1000;

/** The snapshot last sent per provider, for SNAPSHOT_REUSE_MS (then let go, so an idle service holds no old list). */
const recentSnapshots = new WeakMap<object, { positioned: PositionedSnapshot; sentAt: number }>();
const snapshotToSend = (live: CallsView): { positioned: PositionedSnapshot; missed: ChangeEntry[] } | undefined => {
  const now = performance.now();
  const recent = recentSnapshots.get(live);
  if (recent && now - recent.sentAt <= SNAPSHOT_REUSE_MS) {
    // Undefined when the log started over since: then only the latest list will do.
    const missed = live.changesSince(recent.positioned.position);
    if (missed) {
      const elapsed = Math.round(now - recent.sentAt);
      return { positioned: { ...recent.positioned, ageMs: recent.positioned.ageMs + elapsed }, missed };
    }
  }
  const positioned = live.positioned();
  if (!positioned) return undefined;
  const kept = { positioned, sentAt: now };
  recentSnapshots.set(live, kept);
  setTimeout(() => {
    if (recentSnapshots.get(live) === kept) recentSnapshots.delete(live);
  }, SNAPSHOT_REUSE_MS).unref();
  return { positioned, missed: [] };
};

const shared = new WeakMap<ChangeEntry, SharedText>();
const sharedChange = (entry: ChangeEntry): SharedText => {
  let text = shared.get(entry);
  if (!text) {
    text = new SharedText(entry.data);
    shared.set(entry, text);
  }
  return text;
};

/** One numbered log a stream carries (a provider's calls, its agent board), as the stream needs it. */
interface FollowedLog {
  /** Its key in the stream's cursor. */
  key: string;
  /** The event that carries its whole state, and the one that carries each entry. */
  events: { snapshot: string; entry: string };
  /** Resolves once the log has a first state, or a failure to tell. */
  ready(): Promise<void>;
  /** Its whole state now, as the event's parts, with the entries that must follow them; undefined while there is none. */
  snapshot(): { position: LogPosition; parts: (string | SharedText)[]; missed: readonly ChangeEntry[] } | undefined;
  /** The entries after `from`, or undefined when the log no longer holds what follows it. */
  changesSince(from: LogPosition): ChangeEntry[] | undefined;
  /** An entry's data for this stream: the shared text, unless the stream sees only part of the log. */
  entryData?: (entry: ChangeEntry) => string;
}

/**
 * One log on a stream: the position the client's copy stands at, brought forward by each entry in
 * turn, and by the whole state when the client has none, when an entry does not follow its copy, or
 * when the log started over. It starts from the client's cursor where the log still holds what
 * followed it. `start` answers `done` when there was nothing left to start (the stream closed, or an
 * entry came first), else whether it sent the client a copy.
 */
const followLog = (stream: EventStream, cursor: StreamCursor, log: FollowedLog, resumeFrom: LogPosition | undefined) => {
  let held: LogPosition | undefined;

  const hold = (position: LogPosition) => {
    held = position;
    cursor.set(log.key, position);
  };

  const sendEntry = (entry: ChangeEntry, epoch: string) => {
    hold({ epoch, seq: entry.seq });
    stream.send(log.events.entry, cursor.toString(), [log.entryData ? log.entryData(entry) : sharedChange(entry)]);
  };

  const sendSnapshot = (): boolean => {
    const found = log.snapshot();
    if (!found) return false;
    hold(found.position);
    stream.send(log.events.snapshot, cursor.toString(), found.parts);
    for (const entry of found.missed) sendEntry(entry, found.position.epoch);
    return true;
  };

  const take = (entry: ChangeEntry) => {
    if (held && entry.seq <= held.seq) return;
    // Without a copy, or with a gap (never expected), the client needs the whole state again.
    if (!held || entry.seq !== held.seq + 1) sendSnapshot();
    else sendEntry(entry, held.epoch);
  };

  return {
    take,
    /** The log started over here: the client's copy cannot be continued. */
    restart: () => {
      if (held) sendSnapshot();
    },
    /** Sends the whole state to a client that holds none yet (the log just got its first). */
    offer: () => {
      if (!held) sendSnapshot();
    },
    start: async (): Promise<'done' | 'sent' | 'none'> => {
      await log.ready();
      if (stream.isClosed || held) return 'done';
      const missed = resumeFrom ? log.changesSince(resumeFrom) : undefined;
      if (resumeFrom && missed) {
        hold(resumeFrom);
        for (const entry of missed) take(entry);
        return 'sent';
      }
      return sendSnapshot() ? 'sent' : 'none';
    },
  };
};

/** A provider's calls on a stream: its list and changes, and its health when that changes. */
const followProvider = (
  stream: EventStream,
  cursor: StreamCursor,
  runtime: ProviderRuntime,
  resumeFrom: LogPosition | undefined,
  selection: QueueSelection | undefined,
) => {
  const providerID = runtime.config.id;
  const { sync } = runtime;
  const view = selection && callsView(selection);
  const calls = followLog(
    stream,
    cursor,
    {
      key: providerID,
      events: { snapshot: 'snapshot', entry: 'changes' },
      ready: () => sync.ready(),
      snapshot: () => {
        const found = snapshotToSend(sync.live);
        if (!found) return undefined;
        const { positioned, missed } = found;
        const [before, after] = snapshotDataAround(providerID, positioned.position, positioned.ageMs);
        return { position: positioned.position, parts: [before, view ? view.records(positioned.snapshot) : sharedCalls(positioned.snapshot), after], missed };
      },
      changesSince: (from) => sync.live.changesSince(from),
      ...(view ? { entryData: (entry: ChangeEntry) => view.change(entry.data) } : {}),
    },
    resumeFrom,
  );

  const sendStatus = (status: ProviderStatus) =>
    stream.send('status', cursor.toString(), [statusData(providerID, status, status.failure && domainProblem(status.failure)?.toBody())]);

  stream.whenClosed(
    sync.live.subscribe((event: SyncEvent) => {
      if (event.type === 'changes') calls.take(event.entry);
      else if (event.type === 'reset') calls.restart();
      else {
        sendStatus(event.status);
        if (event.status.available) calls.offer();
      }
    }),
  );

  return async () => {
    const started = await calls.start();
    if (started === 'done') return;
    const status = sync.live.status();
    if (started === 'none' || status.failure || status.degraded !== undefined) sendStatus(status);
  };
};

/** The board's snapshot, compressed at most once per change of the board for every stream that sends it. */
const sharedBoards = new WeakMap<AgentBoard, { seq: number; text: SharedText }>();
const sharedBoard = (board: AgentBoard): { text: SharedText; position: LogPosition } | undefined => {
  const snapshot = board.snapshotData();
  if (!snapshot) return undefined;
  let held = sharedBoards.get(board);
  if (held?.seq !== snapshot.position.seq) {
    held = { seq: snapshot.position.seq, text: new SharedText(snapshot.data) };
    sharedBoards.set(board, held);
  }
  return { text: held.text, position: snapshot.position };
};

/**
 * One provider's agent board on a stream that asked for it: its `agents` snapshot once the board is
 * there, then `agent-changes` numbered in the board's own log, resumed like the calls. Provider IDs
 * never hold a colon, so its cursor key is apart from theirs.
 */
const followAgents = (stream: EventStream, cursor: StreamCursor, runtime: ProviderRuntime, resumeFrom: LogPosition | undefined, view?: StreamView) => {
  const board = runtime.agents;
  const agents = followLog(
    stream,
    cursor,
    {
      key: agentsKey(runtime.config.id),
      events: { snapshot: 'agents', entry: 'agent-changes' },
      ready: () => board.ready(),
      snapshot: () => {
        const found = sharedBoard(board);
        return found && { position: found.position, parts: [view ? view.snapshot(found.text.text) : found.text], missed: [] };
      },
      changesSince: (from) => board.changesSince(from),
      ...(view ? { entryData: (entry: ChangeEntry) => view.change(entry.data) } : {}),
    },
    resumeFrom,
  );
  stream.whenClosed(board.subscribe(agents.take));
  return async () => {
    await agents.start();
  };
};

/** The stream cursor's key for a provider's agent board. */
const agentsKey = (providerID: string) => `agents:${providerID}`;

/** The figures' snapshot, compressed at most once per change for every stream that sends it. */
const sharedQueueFigures = new WeakMap<QueueBoard, { seq: number; text: SharedText }>();
const sharedQueues = (board: QueueBoard): { text: SharedText; position: LogPosition } | undefined => {
  const snapshot = board.snapshotData();
  if (!snapshot) return undefined;
  let held = sharedQueueFigures.get(board);
  if (held?.seq !== snapshot.position.seq) {
    held = { seq: snapshot.position.seq, text: new SharedText(snapshot.data) };
    sharedQueueFigures.set(board, held);
  }
  return { text: held.text, position: snapshot.position };
};

/** One provider's queues on a stream that asked for them: a `queues` snapshot, then `queue-changes`, resumed like the calls. */
const followQueues = (stream: EventStream, cursor: StreamCursor, runtime: ProviderRuntime, resumeFrom: LogPosition | undefined, view?: StreamView) => {
  const board = runtime.queues;
  const queues = followLog(
    stream,
    cursor,
    {
      key: queuesKey(runtime.config.id),
      events: { snapshot: 'queues', entry: 'queue-changes' },
      // A journal that cannot be read now leaves the stream without queues until it can: the calls still flow.
      ready: () => board.ready().catch(() => undefined),
      snapshot: () => {
        const found = sharedQueues(board);
        return found && { position: found.position, parts: [view ? view.snapshot(found.text.text) : found.text], missed: [] };
      },
      changesSince: (from) => board.changesSince(from),
      ...(view ? { entryData: (entry: ChangeEntry) => view.change(entry.data) } : {}),
    },
    resumeFrom,
  );
  stream.whenClosed(board.subscribe(queues.take));
  return async () => {
    await queues.start();
  };
};

/** The stream cursor's key for a provider's queues. */
const queuesKey = (providerID: string) => `queues:${providerID}`;

export const callStreamRoute = async (app: FastifyInstance, { registry, heartbeatMs, maxBufferedBytes }: CallStreamOptions) => {
  const open = new Set<EventStream>();
  // Streams end before the server closes, so shutdown never waits on them; clients resume elsewhere or after the restart.
  app.addHook('preClose', async () => {
    for (const stream of open) stream.end();
  });

  // A stream is counted among its token's streams, not its requests in flight: it is open for hours on purpose.
  app.get(routePatterns.callStream, { config: { doc, stream: true } }, async (request: StreamRequest, reply) => {
    requirePermission(request.principal, 'calls:read');
    const query = streamQuerySchema.safeParse(request.query);
    if (!query.success) throw zodProblem('invalid_request', 'The stream request is not valid', query.error, 'is not a known query parameter');
    const runtimes = query.data.providers.map((providerID) => resolveProvider(registry, request.principal, { ...request.params, providerID }));
    const resume = parseStreamCursor(request.headers['last-event-id']);

    app.streamSlots.open(request, reply);
    const stream = EventStream.open(request, reply, {
      heartbeatMs: heartbeatMs ?? STREAM_HEARTBEAT_MS,
      retryMs: STREAM_RETRY_MS,
      maxBufferedBytes: maxBufferedBytes ?? MAX_STREAM_BUFFER_BYTES,
      headers: API_SECURITY_HEADERS,
    });
    open.add(stream);
    stream.whenClosed(() => open.delete(stream));
    const cursor = new StreamCursor(resume);
    const principal = request.principal;
    // What a person who sees only some calls may see of each provider; nothing to cut for everyone else.
    const seen = (runtime: ProviderRuntime) => resolveQueueSelection(runtime, undefined, principal);
    // A stream cut to a view starts from a snapshot even when it resumes: what it sent before (to tell
    // a call that leaves the view as removed) went with the old connection.
    const resumed = principal.view === undefined ? resume : undefined;
    const starts = runtimes.map((runtime) => followProvider(stream, cursor, runtime, resumed?.get(runtime.config.id), seen(runtime)));
    if (query.data.include?.has('agents'))
      starts.push(
        ...runtimes.map((runtime) => {
          const visible = visibleSubscribers(runtime, principal);
          return followAgents(stream, cursor, runtime, resumed?.get(agentsKey(runtime.config.id)), visible && agentsView(visible));
        }),
      );
    if (query.data.include?.has('queues'))
      starts.push(
        ...runtimes.map((runtime) =>
          followQueues(
            stream,
            cursor,
            runtime,
            resumed?.get(queuesKey(runtime.config.id)),
            principal.view && queuesView(new Set(visibleQueueIDs(runtime, principal))),
          ),
        ),
      );
    await Promise.all(starts.map((start) => start()));
  });
};
