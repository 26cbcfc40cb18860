/**
 * The alert rules on counts, in the URL so a reload keeps them and a link sets a wall screen's:
 * `?alerts=waiting:3:6,missed:5:10,live:40:60,available:3:1`, each rule `name:warning:critical`,
 * a level left empty (or the rule left out) is off. Service level and the longest wait alert at
 * the levels of the service level settings (`slwarn`, `slcrit`, `waitwarn`, `waitcrit`).
 */
import { useCallback } from 'react';
import { useSearchParams } from 'react-router';

export const ALERTS_PARAM = 'alerts';

export type CountRuleID = 'waiting' | 'missed' | 'live' | 'available';

/** A rule's two levels; absent, the level is off. */
export interface Levels {
  warning?: number;
  critical?: number;
}

export type AlertRules = Record<CountRuleID, Levels>;

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
  const rules = noAlertRules();
  for (const part of (text ?? '').split(',')) {
    const [name, warningText, criticalText] = part.split(':');
    if (!name || !(name in COUNT_RULES)) continue;
    const rule = COUNT_RULES[name as CountRuleID];
    const warning = level(warningText, rule.max);
    let critical = level(criticalText, rule.max);
    if (warning !== undefined && critical !== undefined && (rule.below ? critical >= warning : critical <= warning)) critical = undefined;
    rules[name as CountRuleID] = { ...(warning === undefined ? {} : { warning }), ...(critical === undefined ? {} : { critical }) };
  }
  return rules;
};

/** The URL's text for the rules, or undefined when every rule is off. */
export const formatAlertRules = (rules: AlertRules): string | undefined => {
  const parts = COUNT_RULE_IDS.flatMap((id) => {
    const { warning, critical } = rules[id];
    return warning === undefined && critical === undefined ? [] : [`${id}:${warning ?? ''}:${critical ?? ''}`];
  });
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
          const text = formatAlertRules(next);
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
