/**
 * The wall screen: huge tiles and the live chart, readable across a room, with the agent board
 * beside or instead of the chart (`?agents=1`); theme and scale from the URL, never paused.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useLayoutEffect, useMemo } from 'react';
import { Link, useSearchParams } from 'react-router';
import { CallTiles, type CallTileName } from '../../features/call-stats/components/call-tiles.js';
import { SERVICE_LEVEL_TILES, ServiceLevelTiles } from '../../features/service-level/components/service-level-tiles.js';
import { WallAgentBoard } from '../../features/agents/components/wall-agent-board.js';
import { WallAlertBanner } from '../../features/alerts/components/alert-banner.js';
import { SoundToggle } from '../../features/alerts/components/alert-output-controls.js';
import { useAlertCenter } from '../../features/alerts/hooks/use-alert-center.js';
import { useAlertRules } from '../../lib/alert-rules.js';
import { LiveConcurrencyChart } from '../../features/concurrency/components/live-concurrency-chart.js';
import { useFreshness, type Freshness } from '../../features/freshness/hooks/use-freshness.js';
import { staleReason } from '../../features/freshness/components/stale-banner.js';
import { useApi } from '../../lib/api/api-context.js';
import { meKeys } from '../../lib/api/me-query.js';
import { useAgentBoard, type AgentBoardFeed } from '../../lib/api/use-agent-board.js';
import { WallQueues } from '../../features/queues/components/wall-queues.js';
import { useBoardInScope, useQueueView } from '../../features/queues/hooks/use-queue-view.js';
import { scopeNames } from '../../features/queues/utils/queue-view.js';
import { QueueScopeProvider } from '../../lib/queue-scope.js';
import { useCallsFeed, type CallsFeed } from '../../lib/api/use-calls-feed.js';
import { isLive } from '../../lib/call-state.js';
import { useNow } from '../../lib/clock.js';
import { useTitlePart } from '../../lib/document-title.js';
import { formatAge, formatClockTime, formatShortTime, timeZoneAbbreviation } from '../../lib/format.js';
import { setDefaultPhoneCountry, usePhoneCountry } from '../../lib/phone-country.js';
import { useLoadPhoneRules } from '../../lib/phone-rules-loader.js';
import { usePolling } from '../../lib/polling-context.js';
import { useAddressTheme, useAppliedTheme } from '../../lib/theme.js';
import { useTimeZone } from '../../lib/time-zone.js';
import { ALL_PROVIDERS, useWorkspace, type Workspace, type WorkspaceState } from '../../lib/workspace.js';
import { useRefusedToken } from '../use-refused-token.js';

/** The wall's second row: the live picture; ringing is in "Waiting now", and today's peak on the chart. */
const WALL_TILES: readonly CallTileName[] = ['live', 'direction', 'missed', 'longest'];

const MIN_SCALE = 0.75;
const MAX_SCALE = 2;

/** `?scale=`: a number from 0.75 to 2 (clamped), else 1. */
const parseScale = (text: string | null): number => {
  const value = text === null || text.trim() === '' ? NaN : Number(text);
  return Number.isFinite(value) ? Math.min(MAX_SCALE, Math.max(MIN_SCALE, value)) : 1;
};

/**
 * Every size on the page is in rem, and the `wallboard` class sizes rem from the screen and the
 * scale (index.css), so the page fits any screen at any scale: the chart takes what is left.
 */
const useWallScale = (scale: number) => {
  useLayoutEffect(() => {
    const root = document.documentElement;
    root.classList.add('wallboard');
    root.style.setProperty('--wall-scale', String(scale));
    return () => {
      root.classList.remove('wallboard');
      root.style.removeProperty('--wall-scale');
    };
  }, [scale]);
};

/** A pause chosen in the live view must not leave a wall screen frozen: it has no button to resume. */
const useNeverPaused = () => {
  const { paused, setPaused } = usePolling();
  useEffect(() => {
    if (paused) setPaused(false);
  }, [paused, setPaused]);
};

const WORKSPACE_RETRY_MS = 15_000;

/** Nobody is at a wall screen to press reload: a workspace that failed to load is asked for again until it loads. */
const useWorkspaceRetry = (state: WorkspaceState) => {
  const queryClient = useQueryClient();
  const client = useApi();
  const failed = state.status === 'error';
  useEffect(() => {
    if (!failed) return;
    const timer = setInterval(() => void queryClient.refetchQueries({ queryKey: meKeys.service(client.baseURL) }), WORKSPACE_RETRY_MS);
    return () => clearInterval(timer);
  }, [failed, client, queryClient]);
};

const useWallTitle = (feed: CallsFeed, stale: boolean) => {
  const live = feed.status === 'ready' ? feed.calls.filter(isLive).length : undefined;
  useTitlePart('page', stale ? 'NOT LIVE · Live calls · Callboard' : live === undefined ? 'Live calls · Callboard' : `(${live}) Live calls · Callboard`);
};

/** The live view's address: the same workspace and time zone, without the wallboard's own options. */
const useLiveViewSearch = (): string => {
  const [params] = useSearchParams();
  const next = new URLSearchParams(params);
  next.delete('theme');
  next.delete('scale');
  next.delete('agents');
  next.delete('queues');
  const search = next.toString();
  return search ? `?${search}` : '';
};

const freshnessText = (freshness: Freshness): string => {
  switch (freshness.level) {
    case 'pending':
      return 'Connecting…';
    case 'paused':
      return 'Paused';
    case 'stale':
      return 'Not live';
    case 'live':
      return `Live · updated ${formatAge(freshness.ageMs)} ago`;
  }
};

const freshnessDot: Record<Freshness['level'], string> = { live: 'bg-talking', paused: 'bg-ended', stale: 'bg-missed', pending: 'bg-ended' };

/** Laid over the chart, so the warning takes no height from a screen that cannot scroll. */
const NotLive = ({ feed, freshness, timeZone }: { feed: CallsFeed; freshness: Freshness; timeZone: string }) => {
  const asOf = useNow() - freshness.ageMs;
  const reason = staleReason(feed);
  return (
    <div className="absolute inset-x-0 top-0 z-10 rounded-lg border-4 border-danger bg-danger-bg px-6 py-4 text-danger">
      <p className="text-[3rem] leading-tight font-extrabold">
        <span aria-hidden="true">⚠ </span>
        {feed.status === 'ready' ? `NOT LIVE — data from ${formatShortTime(asOf, timeZone)}` : 'NOT LIVE — no data yet'}
      </p>
      <p className="text-[1.5rem]">{reason} Reconnecting automatically.</p>
    </div>
  );
};

const selectionName = (workspace: Workspace): string => {
  const application = workspace.applications.find((a) => a.id === workspace.applicationID)?.name ?? workspace.applicationID;
  const provider =
    workspace.provider === ALL_PROVIDERS ? 'All providers' : (workspace.providers.find((p) => p.id === workspace.provider)?.name ?? workspace.provider);
  return `${application} · ${provider}`;
};

/**
 * Beside the chart up to this many agents; more take the chart's place and the second row of tiles
 * (the board's totals say who is on a call), so 300 agents fit a 1080p screen in readable tiles.
 */
const AGENTS_BESIDE_CHART = 60;

const Wallboard = ({ workspace, showAgents, showQueues }: { workspace: Workspace; showAgents: boolean; showQueues: boolean }) => {
  const wholeFeed = useCallsFeed(workspace.scopes, { inBackground: true });
  const view = useQueueView(workspace.scopes, wholeFeed.mode, wholeFeed.calls);
  const { queues, queueIDs, queueScope, scopedCalls } = view;
  const feed = useMemo(() => (scopedCalls === wholeFeed.calls ? wholeFeed : { ...wholeFeed, calls: scopedCalls }), [wholeFeed, scopedCalls]);
  const [rules] = useAlertRules();
  // The board is read for its tiles, or for a rule on agents available.
  const watchesAgents = rules.available.warning !== undefined || rules.available.critical !== undefined;
  const wholeBoard = useAgentBoard(workspace.scopes, feed.mode, { enabled: showAgents || watchesAgents });
  const board = useBoardInScope(wholeBoard, view);
  const agentsOnly = showAgents && board.agents.length > AGENTS_BESIDE_CHART;
  useRefusedToken(feed.error);
  const freshness = useFreshness(feed);
  const timeZone = useTimeZone();
  const now = useNow();
  const stale = freshness.level === 'stale';
  useWallTitle(feed, stale);
  useLoadPhoneRules(feed.status === 'ready');
  const alerts = useAlertCenter({
    calls: feed.calls,
    scopes: workspace.scopes,
    board: showAgents || watchesAgents ? board : undefined,
    ready: feed.status === 'ready',
    queues,
  });

  return (
    <>
      {/* Upright, one item a row from the start: how the row wraps would otherwise change as its words arrive. */}
      <header className="flex flex-wrap items-center justify-between gap-x-10 gap-y-2 portrait:flex-col portrait:items-start">
        <div className="flex min-w-0 flex-wrap items-baseline gap-x-5">
          <h1 className="text-[2.5rem] leading-tight font-bold">Live calls</h1>
          <p className="text-[1.75rem] text-muted">
            {selectionName(workspace)}
            {queueIDs.length === 0 ? '' : queueIDs.length > 3 ? ` · ${queueIDs.length} queues` : ` · ${scopeNames(queueIDs, queues.rows).join(', ')}`}
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-x-10 gap-y-2 portrait:flex-col portrait:items-start">
          <SoundToggle className="text-[1rem]" />
          {/* As wide as "Live · updated 59 s ago" from the start: the sound button beside it stays put when the words arrive. */}
          <p className="flex items-center gap-3 text-[1.75rem] font-semibold tabular landscape:min-w-[14.5em]" data-freshness={freshness.level}>
            <span aria-hidden="true" className={`inline-block h-[0.6em] w-[0.6em] rounded-full ${freshnessDot[freshness.level]}`} />
            {freshnessText(freshness)}
          </p>
          <p className="text-[2.5rem] leading-none font-semibold tabular">
            <time dateTime={new Date(now).toISOString()}>{formatClockTime(now, timeZone)}</time>{' '}
            <span className="text-[1.5rem] font-normal text-muted" title={timeZone}>
              {timeZoneAbbreviation(timeZone, now)}
            </span>
          </p>
        </div>
      </header>
      {/* With the board, in its own row: the board fits itself to the height left, and its totals stay in view. */}
      {(showAgents || showQueues) && !stale ? <WallAlertBanner center={alerts} /> : null}
      {showQueues ? (
        <div className={`relative flex min-h-0 flex-1 flex-col ${stale ? 'stale-data' : ''}`} data-stale={stale || undefined}>
          <WallQueues feed={queues} only={queueIDs} />
          {stale ? <NotLive feed={feed} freshness={freshness} timeZone={timeZone} /> : null}
        </div>
      ) : (
        <QueueScopeProvider scope={queueScope}>
          <WallFigures
            feed={feed}
            workspace={workspace}
            showAgents={showAgents}
            agentsOnly={agentsOnly}
            stale={stale}
            board={board}
            alerts={alerts}
            freshness={freshness}
            timeZone={timeZone}
          />
        </QueueScopeProvider>
      )}
    </>
  );
};

/** The wall's tiles, and the chart and the board below them. */
const WallFigures = ({
  feed,
  workspace,
  showAgents,
  agentsOnly,
  stale,
  board,
  alerts,
  freshness,
  timeZone,
}: {
  feed: CallsFeed;
  workspace: Workspace;
  showAgents: boolean;
  agentsOnly: boolean;
  stale: boolean;
  board: AgentBoardFeed;
  alerts: ReturnType<typeof useAlertCenter>;
  freshness: Freshness;
  timeZone: string;
}) => {
  return (
    <>
      <div className={stale ? 'stale-data' : undefined} data-stale={stale || undefined}>
        {/* Service level and who waits first: what a room reads from across it. */}
        <CallTiles
          calls={feed.calls}
          scopes={workspace.scopes}
          loading={feed.status !== 'ready'}
          size="wall"
          leading={<ServiceLevelTiles calls={feed.calls} scopes={workspace.scopes} loading={feed.status !== 'ready'} size="wall" />}
          leadingCount={SERVICE_LEVEL_TILES}
          tiles={agentsOnly ? [] : WALL_TILES}
        />
      </div>
      <div className="relative flex min-h-0 flex-1 flex-col">
        <div
          className={`grid min-h-0 flex-1 gap-6 ${showAgents && !agentsOnly ? 'grid-cols-[minmax(0,2fr)_minmax(0,3fr)]' : 'grid-cols-1'} ${stale ? 'stale-data' : ''}`}
          data-stale={stale || undefined}
        >
          {agentsOnly ? null : (
            <div className="flex min-h-0 min-w-0 flex-col">
              <LiveConcurrencyChart calls={feed.calls} receivedAt={feed.receivedAt} scopes={workspace.scopes} timeZone={timeZone} size="wall" />
            </div>
          )}
          {showAgents ? (
            <div className="flex min-h-0 min-w-0 flex-col">
              <WallAgentBoard board={board} />
            </div>
          ) : null}
        </div>
        {/* Without the board, laid over the chart's heading as NOT LIVE is: the chart keeps its share of a screen that cannot scroll. */}
        {stale ? <NotLive feed={feed} freshness={freshness} timeZone={timeZone} /> : showAgents ? null : <WallAlertBanner center={alerts} overlay />}
      </div>
    </>
  );
};

export const WallboardPage = () => {
  const [params] = useSearchParams();
  useAppliedTheme(useAddressTheme());
  useWallScale(parseScale(params.get('scale')));
  setDefaultPhoneCountry(usePhoneCountry());
  useNeverPaused();
  const state = useWorkspace();
  useWorkspaceRetry(state);
  useRefusedToken(state.status === 'error' ? state.error : undefined);
  const liveSearch = useLiveViewSearch();

  return (
    // Exactly the screen's height: a wall screen cannot scroll, so the chart shrinks to fit instead.
    <main className="relative flex h-dvh flex-col gap-4 p-6">
      {state.status === 'pending' ? <p className="text-[2.5rem] text-muted">Loading your workspace…</p> : null}
      {state.status === 'error' ? (
        <div className="rounded-lg border-4 border-danger bg-danger-bg px-6 py-4 text-danger">
          <h1 className="text-[3rem] font-bold">Cannot load your workspace</h1>
          <p className="text-[1.75rem]">
            {state.error.detail} ({state.error.code}) Trying again automatically.
          </p>
        </div>
      ) : null}
      {state.status === 'ready' ? <Wallboard workspace={state.workspace} showAgents={params.get('agents') === '1'} showQueues={params.get('queues') === '1'} /> : null}
      {/* In the page's bottom padding: there when wanted, never taking room from the numbers. */}
      <Link
        to={{ pathname: '/', search: liveSearch }}
        className="absolute right-6 bottom-0.5 text-[length:max(0.875rem,12px)] text-muted underline underline-offset-2 focus-visible:outline-2 focus-visible:outline-accent"
      >
        Back to the live view
      </Link>
    </main>
  );
};
