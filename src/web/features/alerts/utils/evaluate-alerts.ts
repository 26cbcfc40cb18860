/** Which alert rules trip on the figures on screen now, at which level, in words. */
import { COUNT_RULES, type AlertRules, type CountRuleID } from '../../../lib/alert-rules.js';
import { formatDuration } from '../../../lib/format.js';
import { serviceLevelAlert, waitAlert, type ServiceLevelSettings } from '../../../lib/service-level-settings.js';

export type AlertLevel = 'warning' | 'critical';
/** A rule on the whole view, or on one queue (`waiting@support`, `service-level@support`). */
export type AlertID = CountRuleID | 'service-level' | 'longest-wait' | `${CountRuleID | 'service-level'}@${string}`;

/** One queue's figures as its rules read them (from the service's queue figures). */
export interface QueueAlertFigures {
  queueID: string;
  name: string;
  /** Service level over the last 15 minutes, with the queue's own answer time; null without calls. */
  serviceLevel: number | null;
  target: number;
  answerWithinSeconds: number;
  waiting: number;
  /** Callers who gave up in the last 15 minutes (short abandons left out). */
  missed: number;
  live: number;
  available: number;
}

/** The figures the rules read; one that is not known yet (still loading) trips nothing. */
export interface AlertFigures {
  serviceLevel?: number | null;
  longestWaitMs?: number;
  waiting?: number;
  missed?: number;
  live?: number;
  available?: number;
}

export interface AlertCondition {
  id: AlertID;
  level: AlertLevel;
  /** What is wrong, with the figure: "Service level 62 %". */
  title: string;
  /** The rule it broke: "below 70 %". */
  rule: string;
}

const percent = (share: number) => `${Math.round(share * 100)} %`;
const plural = (count: number, one: string, many: string) => `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;

const COUNT_TITLES: Record<CountRuleID, (value: number) => string> = {
  waiting: (n) => `${plural(n, 'caller', 'callers')} waiting`,
  missed: (n) => `${plural(n, 'missed call', 'missed calls')} in 15 min`,
  live: (n) => plural(n, 'live call', 'live calls'),
  available: (n) => `${plural(n, 'agent', 'agents')} available`,
};

const countLevel = (value: number, levels: AlertRules[CountRuleID], below: boolean): AlertLevel | undefined => {
  const past = (threshold: number | undefined) => threshold !== undefined && (below ? value < threshold : value >= threshold);
  return past(levels.critical) ? 'critical' : past(levels.warning) ? 'warning' : undefined;
};

/** The rules whose figure is not known yet: they trip nothing, and have not cleared either. */
export const unknownRules = (figures: AlertFigures): AlertID[] => [
  ...(figures.serviceLevel === undefined ? (['service-level'] as const) : []),
  ...(figures.longestWaitMs === undefined ? (['longest-wait'] as const) : []),
  ...(Object.keys(COUNT_TITLES) as CountRuleID[]).filter((id) => figures[id] === undefined),
];

/**
 * Each queue's own rules: its service level below its target (a warning; ten points under it,
 * critical), and the count rules that name it. The title names the queue.
 */
const queueConditions = (queues: readonly QueueAlertFigures[], rules: AlertRules): AlertCondition[] => {
  const tripped: AlertCondition[] = [];
  for (const queue of queues) {
    const level = queue.serviceLevel;
    if (level !== null && level < queue.target) {
      const critical = level < queue.target - 0.1;
      tripped.push({
        id: `service-level@${queue.queueID}`,
        level: critical ? 'critical' : 'warning',
        title: `${queue.name}: service level ${percent(level)}`,
        rule: `below ${critical ? `${percent(Math.max(0, queue.target - 0.1))}, ten points under its target` : `its target ${percent(queue.target)}`} (answered within ${queue.answerWithinSeconds} s, last 15 min)`,
      });
    }
  }
  for (const rule of rules.byQueue ?? []) {
    const queue = queues.find((candidate) => candidate.queueID === rule.queueID);
    if (!queue) continue;
    const value = queue[rule.id];
    const { below } = COUNT_RULES[rule.id];
    const level = countLevel(value, rule.levels, below);
    if (!level) continue;
    const threshold = rule.levels[level] as number;
    tripped.push({
      id: `${rule.id}@${rule.queueID}`,
      level,
      title: `${queue.name}: ${COUNT_TITLES[rule.id](value)}`,
      rule: below ? `fewer than ${threshold}` : `${threshold} or more`,
    });
  }
  return tripped;
};

/** The rules tripped now, critical ones first; `queues` (when known) adds each queue's own. */
export const evaluateAlerts = (figures: AlertFigures, rules: AlertRules, settings: ServiceLevelSettings, queues: readonly QueueAlertFigures[] = []): AlertCondition[] => {
  const tripped: AlertCondition[] = queueConditions(queues, rules);
  if (figures.serviceLevel !== undefined && figures.serviceLevel !== null) {
    const level = serviceLevelAlert(figures.serviceLevel, settings);
    if (level)
      tripped.push({
        id: 'service-level',
        level,
        title: `Service level ${percent(figures.serviceLevel)}`,
        rule: `below ${percent(level === 'critical' ? settings.criticalBelow : settings.warnBelow)} (answered within ${settings.answerWithinSeconds} s, last 15 min)`,
      });
  }
  if (figures.longestWaitMs !== undefined) {
    const level = waitAlert(figures.longestWaitMs, settings);
    if (level)
      tripped.push({
        id: 'longest-wait',
        level,
        title: `A caller has waited ${formatDuration(figures.longestWaitMs)}`,
        rule: `${formatDuration(level === 'critical' ? settings.waitCriticalMs : settings.waitWarnMs)} or longer`,
      });
  }
  for (const id of Object.keys(COUNT_TITLES) as CountRuleID[]) {
    const value = figures[id];
    if (value === undefined) continue;
    const { below } = COUNT_RULES[id];
    const level = countLevel(value, rules[id], below);
    if (!level) continue;
    const threshold = rules[id][level] as number;
    tripped.push({ id, level, title: COUNT_TITLES[id](value), rule: below ? `fewer than ${threshold}` : `${threshold} or more` });
  }
  return tripped.sort((a, b) => (a.level === b.level ? 0 : a.level === 'critical' ? -1 : 1));
};
