/**
 * An agent's desk: their own state and today's figures, their calls of the day, the callers to call
 * back, and click-to-call as themselves. The service keeps what an agent sees to their own; the desk
 * shows the lines the connection places calls as, so a person who also supervises sees their own here too.
 */
import { useMemo } from 'react';
import { Link, useLocation } from 'react-router';
import { startOfDayIn } from '../../../contract/time-zone.js';
import { Banner } from '../../components/ui/banner.js';
import { OwnStatePanel } from '../../features/agents/components/own-state-panel.js';
import { ClickToCallPanel } from '../../features/click-to-call/components/click-to-call-panel.js';
import { FreshnessStatus } from '../../features/freshness/components/freshness-status.js';
import { StaleBanner } from '../../features/freshness/components/stale-banner.js';
import { useFreshness } from '../../features/freshness/hooks/use-freshness.js';
import { LiveCallsTable, type EmptyListText } from '../../features/live-calls/components/live-calls-table.js';
import { useTodaysCalls } from '../../features/my-desk/hooks/use-todays-calls.js';
import { ToCallBackPanel } from '../../features/service-level/components/to-call-back-panel.js';
import { useAgentBoard, type AgentBoardFeed } from '../../lib/api/use-agent-board.js';
import { useCallsFeed, type CallsFeed } from '../../lib/api/use-calls-feed.js';
import { useTitlePart } from '../../lib/document-title.js';
import { useLoadPhoneRules } from '../../lib/phone-rules-loader.js';
import { usePollInterval } from '../../lib/poll-interval.js';
import { useTimeZone } from '../../lib/time-zone.js';
import type { Workspace } from '../../lib/workspace.js';
import { useRefusedToken } from '../use-refused-token.js';
import { WorkspaceGate } from '../workspace-gate.js';
import { WorkspaceSwitcher } from '../workspace-switcher.js';

const NO_CALLS_TODAY: EmptyListText = {
  title: 'No calls yet today',
  detail: 'Calls you take, miss or place today appear here as soon as they ring.',
};

/**
 * Where today begins: the service's midnight, which its figures of the day count from, so the list
 * and the figures agree; while the board cannot say, midnight where the times are shown, on the day
 * of the latest calls received (not of the ticking clock, which would render the page every second).
 */
const dayStartOf = (board: AgentBoardFeed, feed: CallsFeed, timeZone: string): number | undefined => {
  if (board.dayStart !== undefined) return Date.parse(board.dayStart);
  return board.status === 'error' && feed.receivedAt > 0 ? startOfDayIn(timeZone, feed.receivedAt) : undefined;
};

type Select = (choice: { app?: string; provider?: string }) => void;

const DeskView = ({ workspace, subscriberIDs, onSelect }: { workspace: Workspace; subscriberIDs: readonly string[]; onSelect: Select }) => {
  const intervalMs = usePollInterval();
  const feed = useCallsFeed(workspace.scopes, { intervalMs });
  useRefusedToken(feed.error);
  const freshness = useFreshness(feed, intervalMs);
  const timeZone = useTimeZone();
  useLoadPhoneRules(feed.status === 'ready');
  const board = useAgentBoard(workspace.scopes, feed.mode);
  const mine = useMemo(() => {
    const lines = new Set(subscriberIDs);
    return (subscriberID: string | undefined) => subscriberID !== undefined && lines.has(subscriberID);
  }, [subscriberIDs]);
  const ownLines = useMemo(() => board.agents.filter(({ agent }) => mine(agent.subscriberID)), [board.agents, mine]);
  const today = useTodaysCalls(workspace.scopes, feed.calls, dayStartOf(board, feed, timeZone));
  const myCalls = useMemo(() => today.calls.filter((call) => mine(call.subscriberID)), [today.calls, mine]);
  useTitlePart('page', 'My desk · Callboard');

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="text-xl font-semibold">My desk</h1>
          <WorkspaceSwitcher workspace={workspace} onSelect={onSelect} />
        </div>
        <FreshnessStatus feed={feed} freshness={freshness} intervalMs={intervalMs} />
      </div>
      <StaleBanner feed={feed} freshness={freshness} timeZone={timeZone} />
      <OwnStatePanel agents={ownLines} status={board.status} />
      {/* On a phone, one column: placing a call and the callers to call back before the day's list. */}
      <div className="grid items-start gap-4 lg:grid-cols-[minmax(0,1fr)_360px]">
        <div className="flex min-w-0 flex-col gap-4 lg:col-start-2 lg:row-start-1">
          <ClickToCallPanel workspace={workspace} calls={feed.calls} />
          <ToCallBackPanel calls={feed.calls} scopes={workspace.scopes} />
        </div>
        <div className="flex min-w-0 flex-col gap-4 lg:col-start-1 lg:row-start-1">
          {today.partial ? (
            <Banner tone="warn" title="Earlier calls of today cannot be read right now">
              The list shows the calls of the last minutes; the rest come back by themselves.
            </Banner>
          ) : null}
          <LiveCallsTable
            calls={myCalls}
            timeZone={timeZone}
            showProvider={workspace.scopes.length > 1}
            loading={today.loading}
            title="My calls today"
            empty={NO_CALLS_TODAY}
          />
        </div>
      </div>
    </div>
  );
};

/** Without a phone line of one's own there is no desk: the live view shows everyone's calls. */
const NoDesk = () => {
  const { search } = useLocation();
  useTitlePart('page', 'My desk · Callboard');
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-xl font-semibold">My desk</h1>
      <Banner tone="info" title="My desk is an agent's page">
        It shows the state, calls and callers of the phone line you place calls as; your account places calls as no one line.{' '}
        <Link to={{ pathname: '/', search }} className="underline underline-offset-2">
          Go to the live view
        </Link>
      </Banner>
    </div>
  );
};

export const MyDeskPage = () => (
  <WorkspaceGate>
    {(workspace, onSelect) =>
      workspace.subscriberIDs ? <DeskView workspace={workspace} subscriberIDs={workspace.subscriberIDs} onSelect={onSelect} /> : <NoDesk />
    }
  </WorkspaceGate>
);
