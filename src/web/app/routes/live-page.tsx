/** The supervisor's live view: tiles, the concurrency chart, the call table, and click-to-call. */
import { Suspense, useCallback, useDeferredValue, useEffect, useMemo } from 'react';
import { CallTiles } from '../../features/call-stats/components/call-tiles.js';
import { ClickToCallPanel } from '../../features/click-to-call/components/click-to-call-panel.js';
import { preloadCallOutcome } from '../../features/click-to-call/components/click-to-call-form.js';
import { SERVICE_LEVEL_TILES, ServiceLevelTiles } from '../../features/service-level/components/service-level-tiles.js';
import { ToCallBackPanel } from '../../features/service-level/components/to-call-back-panel.js';
import { LiveConcurrencyChart } from '../../features/concurrency/components/live-concurrency-chart.js';
import { FreshnessStatus } from '../../features/freshness/components/freshness-status.js';
import { StaleBanner } from '../../features/freshness/components/stale-banner.js';
import { useFreshness } from '../../features/freshness/hooks/use-freshness.js';
import { AgentBoard } from '../../features/agents/components/agent-board.js';
import { agentName } from '../../features/agents/utils/agent-view.js';
import { CALL_LIST_ID, LiveCallsTable } from '../../features/live-calls/components/live-calls-table.js';
import { preloadThresholdSettings } from '../../features/live-calls/components/table-toolbar.js';
import { useTableParams } from '../../features/live-calls/hooks/use-table-params.js';
import { useEndCall } from '../../features/live-calls/hooks/use-end-call.js';
import { useListen } from '../../features/live-calls/hooks/use-listen.js';
import { LiveAlertStrip } from '../../features/alerts/components/live-alert-strip.js';
import { useAnnounce } from '../../lib/announcer.js';
import { useTitlePart } from '../../lib/document-title.js';
import { useAgentBoard, type BoardAgent } from '../../lib/api/use-agent-board.js';
import { useCallsFeed, type CallsFeed } from '../../lib/api/use-calls-feed.js';
import { usePollInterval } from '../../lib/poll-interval.js';
import { useLoadPhoneRules } from '../../lib/phone-rules-loader.js';
import { lazyComponent } from '../../lib/lazy-component.js';
import { isLive } from '../../lib/call-state.js';
import { useTimeZone } from '../../lib/time-zone.js';
import { whenIdle } from '../../lib/when-idle.js';
import type { Workspace } from '../../lib/workspace.js';
import { useRefusedToken } from '../use-refused-token.js';
import { WorkspaceSwitcher } from '../workspace-switcher.js';
import { WorkspaceGate } from '../workspace-gate.js';
import { PartBoundary } from '../../components/part-boundary.js';
import { QueuesPanel } from '../../features/queues/components/queues-panel.js';
import { QueueScopeLine } from '../../features/queues/components/queue-scope-line.js';
import { useBoardInScope, useQueueView } from '../../features/queues/hooks/use-queue-view.js';
import { agentQueuesOf, membershipKey } from '../../lib/agent-queues.js';
import { QueueScopeProvider } from '../../lib/queue-scope.js';

const { Component: EndCallDialog, preload: preloadEndCallDialog } = lazyComponent(
  async () => (await import('../../features/live-calls/components/end-call-dialog.js')).EndCallDialog,
);

const { Component: ListenPanel } = lazyComponent(async () => (await import('../../features/live-calls/components/listen-panel.js')).ListenPanel);

/**
 * What shows only after a click (the end-call question, a placed call's progress or problem, the
 * threshold settings) loads once the first live data is on screen: off the first screen, and
 * there before the click.
 */
const usePreloadAfterData = (ready: boolean) =>
  useEffect(() => {
    if (!ready) return undefined;
    return whenIdle(() => {
      for (const preload of [preloadEndCallDialog, preloadCallOutcome, preloadThresholdSettings])
        preload().catch(() => undefined);
    });
  }, [ready]);

const countLive = (calls: CallsFeed['calls']) => {
  let live = 0;
  for (const call of calls) if (isLive(call)) live += 1;
  return live;
};

const useLiveTitle = (calls: CallsFeed['calls'], status: CallsFeed['status']) => {
  // Counted when the calls change, not on every render of the page.
  const counted = useMemo(() => countLive(calls), [calls]);
  const live = status === 'ready' ? counted : undefined;
  useTitlePart('page', live === undefined ? 'Live calls · Callboard' : `(${live}) Live calls · Callboard`);
};

/** Choosing an agent on the board shows their calls in the table (choosing them again shows everyone's). */
const useAgentChoice = () => {
  const { filters, setSubscriber } = useTableParams();
  const announce = useAnnounce();
  const selected = filters.subscriber === '' ? undefined : filters.subscriber;
  const onSelect = useCallback(
    ({ agent }: BoardAgent) => {
      const again = selected === agent.subscriberID;
      setSubscriber(again ? '' : agent.subscriberID);
      announce(again ? 'The call list shows every agent’s calls.' : `The call list shows the calls of ${agentName(agent)}.`);
      if (!again) document.getElementById(CALL_LIST_ID)?.scrollIntoView({ block: 'start', behavior: 'smooth' });
    },
    [selected, setSubscriber, announce],
  );
  return { selected, onSelect };
};

const LiveView = ({
  workspace,
  onSelect,
}: {
  workspace: Workspace;
  onSelect: (choice: { app?: string; provider?: string }) => void;
}) => {
  const intervalMs = usePollInterval();
  const feed = useCallsFeed(workspace.scopes, { intervalMs });
  const view = useQueueView(workspace.scopes, feed.mode, feed.calls);
  const { queues, queueIDs, setQueueIDs, queueScope, scopedCalls } = view;
  // The table shows each change first; the figures (tiles, chart, alerts, panels) follow in a
  // render React may interrupt, so at 10,000 calls a change never waits for all of them at once.
  const calls = useDeferredValue(scopedCalls);
  const receivedAt = useDeferredValue(feed.receivedAt);
  // With the calls it describes, so the figures never read "ready" over the empty list before them.
  const status = useDeferredValue(feed.status);
  useLiveTitle(calls, status);
  useRefusedToken(feed.error);
  const freshness = useFreshness(feed, intervalMs);
  const timeZone = useTimeZone();
  useLoadPhoneRules(feed.status === 'ready');
  usePreloadAfterData(feed.status === 'ready');
  const dimmed = freshness.level === 'stale';
  const wholeBoard = useAgentBoard(workspace.scopes, feed.mode);
  const board = useBoardInScope(wholeBoard, view);
  const membership = membershipKey(queues.rows);
  // Rebuilt when a queue's name or members change, not at every change of its figures: the tiles keep their props.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const agentQueues = useMemo(() => agentQueuesOf(queues.rows), [membership]);
  const agentChoice = useAgentChoice();
  const ending = useEndCall(workspace);
  const listening = useListen(workspace);
  const listenedID = listening.asking?.call.callID;
  // Every call of the feed, whatever the queue filter shows: the panel stops when its call ends or leaves the list.
  const listened = useMemo(() => (listenedID === undefined ? undefined : feed.calls.find((call) => call.callID === listenedID)), [feed.calls, listenedID]);

  const loading = status !== 'ready';
  // The same elements while the deferred calls stand still: the table's own render skips them.
  const figures = useMemo(
    () => (
      <>
        <CallTiles
          calls={calls}
          scopes={workspace.scopes}
          loading={loading}
          leading={<ServiceLevelTiles calls={calls} scopes={workspace.scopes} loading={loading} />}
          leadingCount={SERVICE_LEVEL_TILES}
        />
        <div className="grid items-start gap-4 lg:grid-cols-[minmax(0,1fr)_360px]">
          <LiveConcurrencyChart calls={calls} receivedAt={receivedAt} scopes={workspace.scopes} timeZone={timeZone} />
          <div className="flex flex-col gap-4">
            <ClickToCallPanel workspace={workspace} calls={calls} />
            <ToCallBackPanel calls={calls} scopes={workspace.scopes} />
          </div>
        </div>
      </>
    ),
    [calls, receivedAt, workspace, loading, timeZone],
  );

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="text-xl font-semibold">Live calls</h1>
          <WorkspaceSwitcher workspace={workspace} onSelect={onSelect} />
        </div>
        <FreshnessStatus feed={feed} freshness={freshness} intervalMs={intervalMs} />
      </div>
      <StaleBanner feed={feed} freshness={freshness} timeZone={timeZone} />
      <QueueScopeLine ids={queueIDs} rows={queues.rows} onClear={() => setQueueIDs([])} />
      <LiveAlertStrip calls={calls} scopes={workspace.scopes} board={board} ready={status === 'ready'} queues={queues} />
      <div className={`flex flex-col gap-4 ${dimmed ? 'stale-data' : ''}`} data-stale={dimmed || undefined}>
        <QueuesPanel feed={queues} selected={queueIDs} onSelect={setQueueIDs} showProvider={workspace.scopes.length > 1} />
        <QueueScopeProvider scope={queueScope}>
          {figures}
        </QueueScopeProvider>
        <AgentBoard board={board} selected={agentChoice.selected} onSelect={agentChoice.onSelect} queuesOf={agentQueues} />
        <LiveCallsTable
          calls={scopedCalls}
          timeZone={timeZone}
          showProvider={workspace.scopes.length > 1}
          loading={feed.status === 'pending'}
          listen={listening.offer}
          endCall={ending.offer}
        />
      </div>
      {listening.asking ? (
        <div className="fixed inset-x-4 bottom-4 z-40 rounded-md border border-line bg-panel p-3 shadow-lg sm:right-auto sm:w-96">
          <PartBoundary what="Listening to a call" onDismiss={listening.close}>
            <Suspense fallback={<p className="text-sm text-muted">Loading…</p>}>
              <ListenPanel key={listening.asking.call.callID} call={listening.asking.call} live={listened} scope={listening.asking.scope} onClose={listening.close} />
            </Suspense>
          </PartBoundary>
        </div>
      ) : null}
      {ending.asking ? (
        <PartBoundary
          what="Ending a call"
          onDismiss={ending.close}
          className="fixed inset-x-4 bottom-4 z-50 rounded-md border border-danger/40 bg-panel p-3 shadow-lg"
        >
          <Suspense fallback={null}>
            <EndCallDialog call={ending.asking.call} scope={ending.asking.scope} onClose={ending.close} />
          </Suspense>
        </PartBoundary>
      ) : null}
    </div>
  );
};

export const LivePage = () => (
  <WorkspaceGate>{(workspace, onSelect) => <LiveView workspace={workspace} onSelect={onSelect} />}</WorkspaceGate>
);
