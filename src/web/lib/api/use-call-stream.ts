/**
 * The tab's one change stream for the providers on screen, written into React Query's cache:
 * a snapshot replaces a provider's list, a change patches it (only the rows that changed get new
 * objects), a status says how the provider is. Components that ask for the same providers share
 * the stream, so a tab never holds more than one (browsers allow 6 connections per origin).
 */
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useLayoutEffect, useMemo, useSyncExternalStore } from 'react';
import type { ProviderScope } from '../../../contract/paths.js';
import { markAgentsReceived, markCallsReceived, markQueuesReceived } from '../perf-marks.js';
import type { ApiClient } from './api-client.js';
import { agentKeys, applyAgentChanges, boardFrom, type AgentsData } from './agents-query.js';
import { applyQueueChanges, queueKeys } from './queues-query.js';
import type { QueuesResponse } from '../../../contract/queues.js';
import { applyCallChanges, byStart } from './apply-call-changes.js';
import { CallStream, type StreamState } from './call-stream.js';
import { callKeys, keepsUnchangedCalls, shareCallsByID, type CallsData } from './calls-query.js';

/** One stream and how many components use it: opened by the first, closed by the last. */
class SharedStream {
  private users = 0;

  constructor(
    private readonly open: Map<string, SharedStream>,
    readonly key: string,
    readonly stream: CallStream,
    private readonly canResume: () => boolean,
  ) {}

  retain(): void {
    if (this.users === 0) {
      this.open.set(this.key, this);
      this.stream.start(this.canResume);
    }
    this.users += 1;
  }

  /** The last user stops the stream; it stays known, so reopening it resumes where it was. */
  release(): void {
    this.users -= 1;
    if (this.users === 0) this.stream.stop();
  }
}

/** The streams of each cache they write into: a new cache (another sign-in) never gets an old one's stream. */
const streamsOf = new WeakMap<QueryClient, Map<string, SharedStream>>();
const openStreams = (queryClient: QueryClient) => {
  let streams = streamsOf.get(queryClient);
  if (!streams) {
    streams = new Map();
    streamsOf.set(queryClient, streams);
  }
  return streams;
};

const IDLE: StreamState = { mode: 'polling', lastByteAt: 0, reason: 'live updates are paused' };

const writeInto = (
  queryClient: QueryClient,
  client: ApiClient,
  scopes: readonly ProviderScope[],
): ConstructorParameters<typeof CallStream>[2] => {
  const scopeOf = (providerID: string) => scopes.find((s) => s.providerID === providerID);
  const keyOf = (providerID: string) => {
    const scope = scopeOf(providerID);
    return scope ? callKeys.live(client.baseURL, scope) : undefined;
  };
  const boardKeyOf = (providerID: string) => {
    const scope = scopeOf(providerID);
    return scope ? agentKeys.board(client.baseURL, scope) : undefined;
  };
  const queuesKeyOf = (providerID: string) => {
    const scope = scopeOf(providerID);
    return scope ? queueKeys.provider(client.baseURL, scope) : undefined;
  };
  return {
    onArrival: markCallsReceived,
    onSnapshot: (event, arrivedAt) => {
      const key = keyOf(event.providerID);
      if (!key) return;
      // Rows that equal what is on screen keep their objects, as after a poll.
      queryClient.setQueryData<CallsData>(key, (before) => {
        const shared = shareCallsByID(before, {
          calls: [...event.calls].sort(byStart),
          snapshotAgeMs: event.snapshotAgeMs,
          receivedAt: arrivedAt,
          health: before?.health,
        }) as CallsData;
        keepsUnchangedCalls(shared.calls);
        return shared;
      });
    },
    onChanges: (event, arrivedAt) => {
      const key = keyOf(event.providerID);
      if (!key) return;
      queryClient.setQueryData<CallsData>(key, (before) =>
        before
          ? {
              ...before,
              calls: keepsUnchangedCalls(applyCallChanges(before.calls, event.upserted, event.removed)),
              snapshotAgeMs: 0,
              receivedAt: arrivedAt,
            }
          : before,
      );
    },
    onStatus: (event) => {
      const key = keyOf(event.providerID);
      if (!key) return;
      const health = {
        available: event.available,
        problem: event.problem,
        snapshotAgeMs: event.snapshotAgeMs,
        degraded: event.degraded,
        toldAt: Date.now(),
      };
      queryClient.setQueryData<CallsData>(key, (before) => (before ? { ...before, health } : before));
    },
    onAgents: (event, arrivedAt) => {
      markAgentsReceived();
      const key = boardKeyOf(event.providerID);
      if (key) queryClient.setQueryData<AgentsData>(key, (before) => boardFrom(event, before, arrivedAt));
    },
    onAgentChanges: (event, arrivedAt) => {
      markAgentsReceived();
      const key = boardKeyOf(event.providerID);
      if (key) queryClient.setQueryData<AgentsData>(key, (before) => (before ? applyAgentChanges(before, event, arrivedAt) : before));
    },
    onQueues: ({ providerID: _provider, cursor: _cursor, ...figures }) => {
      markQueuesReceived();
      const key = queuesKeyOf(_provider);
      if (key) queryClient.setQueryData<QueuesResponse>(key, figures);
    },
    onQueueChanges: (event) => {
      markQueuesReceived();
      const key = queuesKeyOf(event.providerID);
      if (key) queryClient.setQueryData<QueuesResponse>(key, (before) => (before ? applyQueueChanges(before, event) : before));
    },
  };
};

/** The stream's state for these providers; `enabled: false` (paused, or a hidden tab) holds none open. */
export const useCallStream = (client: ApiClient, scopes: readonly ProviderScope[], enabled: boolean): StreamState => {
  const queryClient = useQueryClient();
  const first = scopes[0];
  const providers = useMemo(() => scopes.map((scope) => scope.providerID).sort(), [scopes]);
  const key = first && enabled ? `${client.baseURL}|${first.accountID}|${first.applicationID}|${providers.join(',')}` : undefined;

  const shared = useMemo(() => {
    if (!key || !first) return undefined;
    const open = openStreams(queryClient);
    return (
      open.get(key) ??
      new SharedStream(
        open,
        key,
        new CallStream(
          client,
          // The agent board and the queues ride on the same stream: a tab holds one, and neither polls.
          { accountID: first.accountID, applicationID: first.applicationID, providers, include: ['agents', 'queues'] },
          writeInto(queryClient, client, scopes),
        ),
        // Changes apply only on top of a list, a board and the queues: without every provider's held, start from snapshots.
        () =>
          scopes.every(
            (scope) =>
              queryClient.getQueryData(callKeys.live(client.baseURL, scope)) !== undefined &&
              queryClient.getQueryData(agentKeys.board(client.baseURL, scope)) !== undefined &&
              queryClient.getQueryData(queueKeys.provider(client.baseURL, scope)) !== undefined,
          ),
      )
    );
    // The key says everything the stream depends on.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);

  // Opened in the commit's layout phase, ahead of every passive effect: a page's components
  // subscribe to their queries there (children first), and the stream, which brings the first
  // data on screen, would otherwise ask last, behind every other request of the page.
  useLayoutEffect(() => {
    if (!shared) return undefined;
    shared.retain();
    return () => shared.release();
  }, [shared]);

  return useSyncExternalStore(shared?.stream.subscribe ?? noSubscription, shared?.stream.getState ?? idleState);
};

const noSubscription = () => () => undefined;
const idleState = () => IDLE;
