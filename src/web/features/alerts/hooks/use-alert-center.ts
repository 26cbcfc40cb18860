/**
 * The alerts of the providers on screen: the rules read against the figures the page shows (who
 * waits, service level over the last 15 minutes, missed calls, live calls, agents available), each
 * trip remembered with since when, told once (a tone where sound is on, a notification where the
 * tab is hidden, a word to screen readers), and quiet once acknowledged until it clears.
 */
import { useEffect, useState, useSyncExternalStore } from 'react';
import type { CallRecord } from '../../../../contract/call-record.js';
import type { ProviderScope } from '../../../../contract/paths.js';
import { useAlertRules } from '../../../lib/alert-rules.js';
import { useAnnounce } from '../../../lib/announcer.js';
import type { AgentBoardFeed } from '../../../lib/api/use-agent-board.js';
import { useNow } from '../../../lib/clock.js';
import { useTitlePart } from '../../../lib/document-title.js';
import { useServiceLevelSettings } from '../../../lib/service-level-settings.js';
import { useTimeZone } from '../../../lib/time-zone.js';
import { useRecentMissed } from '../../call-stats/hooks/use-recent-missed.js';
import { liveCallCount } from '../../call-stats/utils/live-stats.js';
import { useLiveServiceLevels } from '../../service-level/hooks/use-live-service-levels.js';
import { waitingNow } from '../../service-level/utils/waiting.js';
import { playAlertTone } from '../utils/alert-sound.js';
import { notifyAlert } from '../utils/alert-notifications.js';
import { AlertTracker, type TrackedAlert } from '../utils/alert-tracker.js';
import { evaluateAlerts, unknownRules, type AlertCondition, type AlertFigures, type AlertID, type QueueAlertFigures } from '../utils/evaluate-alerts.js';
import type { QueuesFeed } from '../../../lib/api/use-queues.js';

export interface AlertCenter {
  alerts: TrackedAlert[];
  /** False until the figures the rules read are known: no alert yet is not an all-clear. */
  ready: boolean;
  acknowledge: (id: AlertID) => void;
}

const titleOf = (alerts: readonly TrackedAlert[]): string => {
  const open = alerts.filter((alert) => !alert.acknowledged);
  if (open.length === 0) return '';
  const worst = open[0] as TrackedAlert;
  // Marks every system font has: a tab strip cannot show an icon.
  return `${worst.level === 'critical' ? '‼' : '⚠'} ${worst.title}${open.length > 1 ? ` (+${open.length - 1})` : ''}`;
};

/** What the rules read: the live calls of these providers, and the agent board where one is shown or watched. */
export interface AlertCenterInput {
  calls: readonly CallRecord[];
  scopes: readonly ProviderScope[];
  board: AgentBoardFeed | undefined;
  /** False while the calls are loading: no rule reads a count that is not known yet. */
  ready: boolean;
  /** The queues' figures, where the page has them: each queue's own rules read them. */
  queues?: QueuesFeed | undefined;
}

/** What each queue's rules read, from the service's figures of it. */
const queueFiguresOf = (feed: QueuesFeed | undefined): QueueAlertFigures[] =>
  feed?.status === 'ready'
    ? feed.rows.map(({ queue }) => ({
        queueID: queue.queueID,
        name: queue.name,
        serviceLevel: queue.last15Minutes.serviceLevel,
        target: queue.serviceLevelTarget,
        answerWithinSeconds: queue.answerWithinSeconds,
        waiting: queue.now.waiting,
        missed: queue.last15Minutes.abandoned,
        live: queue.now.waiting + queue.now.talking,
        available: queue.now.agents.available,
      }))
    : [];

export const useAlertCenter = ({ calls, scopes, board, ready, queues }: AlertCenterInput): AlertCenter => {
  const now = useNow();
  const timeZone = useTimeZone();
  const [settings] = useServiceLevelSettings();
  const [rules] = useAlertRules();
  const announce = useAnnounce();
  const definition = { answerWithinSeconds: settings.answerWithinSeconds, shortAbandonSeconds: settings.shortAbandonSeconds };
  const levels = useLiveServiceLevels(scopes, calls, definition, timeZone, now);
  const missed = useRecentMissed(scopes, calls, now);
  const [tracker] = useState(() => new AlertTracker());

  const waiting = waitingNow(calls, now);
  const live = liveCallCount(calls);
  const figures: AlertFigures = ready
    ? {
        serviceLevel: levels.status === 'ready' ? levels.recent.serviceLevel : undefined,
        longestWaitMs: waiting.longestMs,
        waiting: waiting.count,
        missed: missed.status === 'ready' ? missed.count : undefined,
        live,
        available: board?.status === 'ready' ? board.totals.available : undefined,
      }
    : {};
  // What trips and what is not known yet, as text: the effect below runs when that changes, not every second.
  const key = JSON.stringify({ conditions: evaluateAlerts(figures, rules, settings, ready ? queueFiguresOf(queues) : []), unknown: unknownRules(figures) });

  useEffect(() => {
    const { conditions, unknown } = JSON.parse(key) as { conditions: AlertCondition[]; unknown: AlertID[] };
    const news = tracker.update(conditions, Date.now(), unknown);
    if (news.length === 0) return;
    const worst = news.find((item) => item.alert.level === 'critical') ?? (news[0] as (typeof news)[number]);
    playAlertTone(worst.alert.level);
    for (const item of news) notifyAlert(item.alert);
    announce(news.map((item) => `${item.alert.level === 'critical' ? 'Critical' : 'Warning'}: ${item.alert.title}, ${item.alert.rule}.`).join(' '));
  }, [key, tracker, announce]);

  const alerts = useSyncExternalStore(tracker.subscribe, tracker.getAlerts);
  useTitlePart('alert', titleOf(alerts));
  return { alerts, ready, acknowledge: (id) => tracker.acknowledge(id) };
};
