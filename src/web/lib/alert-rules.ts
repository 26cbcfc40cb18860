/**
 * The alert rules on counts, in the URL so a reload keeps them and a link sets a wall screen's:
 * `?alerts=waiting:3:6,missed:5:10,live:40:60,available:3:1`, each rule `name:warning:critical`,
 * a level left empty (or the rule left out) is off. A rule may name its queue: `waiting@support:3:6`
 * counts that queue's callers only. Service level and the longest wait alert at the levels of the
 * service level settings (`slwarn`, `slcrit`, `waitwarn`, `waitcrit`); each queue's service level
 * alerts below its own target, a rule every queue has.
 */
import { useCallback } from 'react';
import { useSearchParams } from 'react-router';
import { QUEUE_ID_PATTERN } from '../../contract/queue-filter.js';

export const ALERTS_PARAM = 'alerts';

export type CountRuleID = 'waiting' | 'missed' | 'live' | 'available';

/** A rule's two levels; absent, the level is off. */
export interface Levels {
  warning?: number;
  critical?: number;
}

/** A count rule on one queue's figures. */
export interface QueueRule {
  id: CountRuleID;
  queueID: string;
  levels: Levels;
}

/** The rules on the whole view, and (`byQueue`) those on one queue each; `byQueue` left out of a change keeps those in the URL. */
export type AlertRules = Record<CountRuleID, Levels> & { byQueue?: QueueRule[] };

/** Each rule: what it counts, and whether it trips above its levels (at or past) or below them (fewer than). */
export const COUNT_RULES: Record<CountRuleID, { label: string; below: boolean; max: number }> = {
  waiting: { label: 'Callers waiting', below: false, max: 100_000 },
  missed: { label: 'Missed in 15 min', below: false, max: 100_000 },
  live: { label: 'Live calls', below: false, max: 1_000_000 },
  available: { label: 'Agents available', below: true, max: 100_000 },
};

export const COUNT_RULE_IDS = Object.keys(COUNT_RULES) as CountRuleID[];

export const noAlertRules = (): AlertRules => ({ waiting: {}, missed: {}, live: {}, available: {} });

const level = (text: string | undefined, max: number): number | undefined => {
  if (text === undefined || !/^\d{1,7}$/.test(text)) return undefined;
  const value = Number(text);
  return value <= max ? value : undefined;
};

/**
 * The rules a URL gives. Anything unreadable is off; a critical level that is not past the warning
 * (higher above, lower below) is dropped, as it could never be the worse of the two.
 */
export const parseAlertRules = (text: string | null): AlertRules => {
  const rules: AlertRules = noAlertRules();
  for (const part of (text ?? '').split(',')) {
    const [target, warningText, criticalText] = part.split(':');
    const [name, queueID] = (target ?? '').split('@');
    if (!name || !(name in COUNT_RULES)) continue;
    if (queueID !== undefined && !QUEUE_ID_PATTERN.test(queueID)) continue;
    const rule = COUNT_RULES[name as CountRuleID];
    const warning = level(warningText, rule.max);
    let critical = level(criticalText, rule.max);
    if (warning !== undefined && critical !== undefined && (rule.below ? critical >= warning : critical <= warning)) critical = undefined;
    const levels = { ...(warning === undefined ? {} : { warning }), ...(critical === undefined ? {} : { critical }) };
    if (queueID === undefined) rules[name as CountRuleID] = levels;
    else if (warning !== undefined || critical !== undefined) {
      const byQueue = (rules.byQueue ?? []).filter((held) => !(held.id === name && held.queueID === queueID));
      rules.byQueue = [...byQueue, { id: name as CountRuleID, queueID, levels }];
    }
  }
  return rules;
};

/** The URL's text for the rules, or undefined when every rule is off. */
export const formatAlertRules = (rules: AlertRules): string | undefined => {
  const part = (target: string, { warning, critical }: Levels) => (warning === undefined && critical === undefined ? [] : [`${target}:${warning ?? ''}:${critical ?? ''}`]);
  const parts = [
    ...COUNT_RULE_IDS.flatMap((id) => part(id, rules[id])),
    ...(rules.byQueue ?? []).flatMap((rule) => part(`${rule.id}@${rule.queueID}`, rule.levels)),
  ];
  return parts.length === 0 ? undefined : parts.join(',');
};

export const useAlertRules = (): [AlertRules, (next: AlertRules) => void] => {
  const [params, setParams] = useSearchParams();
  const rules = parseAlertRules(params.get(ALERTS_PARAM));
  const save = useCallback(
    (next: AlertRules) =>
      setParams(
        (current) => {
          const updated = new URLSearchParams(current);
          const text = formatAlertRules(next.byQueue === undefined ? { ...next, byQueue: parseAlertRules(current.get(ALERTS_PARAM)).byQueue ?? [] } : next);
          if (text === undefined) updated.delete(ALERTS_PARAM);
          else updated.set(ALERTS_PARAM, text);
          return updated;
        },
        { replace: true },
      ),
    [setParams],
  );
  return [rules, save];
};
