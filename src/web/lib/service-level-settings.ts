/**
 * Service level's definition (answered within N s, callers who give up sooner than M s left out)
 * and the levels that colour its tiles, in the URL, so a view and a wall screen's link carry them:
 * `?sla=20&slshort=5&slwarn=80&slcrit=70&waitwarn=30&waitcrit=60`.
 */
import { useCallback } from 'react';
import { useSearchParams } from 'react-router';
import { DEFAULT_ANSWER_WITHIN_SECONDS, DEFAULT_SHORT_ABANDON_SECONDS } from '../../contract/service-levels.js';
import type { QueueSettings } from '../../contract/queues.js';
import { useQueueScope } from './queue-scope.js';

export interface ServiceLevelSettings {
  answerWithinSeconds: number;
  shortAbandonSeconds: number;
  /** Service level below this share warns, below `criticalBelow` it is critical. */
  warnBelow: number;
  criticalBelow: number;
  /** A caller waiting longer than this warns, longer than `waitCriticalMs` is critical. */
  waitWarnMs: number;
  waitCriticalMs: number;
}

export const defaultServiceLevelSettings: ServiceLevelSettings = {
  answerWithinSeconds: DEFAULT_ANSWER_WITHIN_SECONDS,
  shortAbandonSeconds: DEFAULT_SHORT_ABANDON_SECONDS,
  warnBelow: 0.8,
  criticalBelow: 0.7,
  waitWarnMs: 30_000,
  waitCriticalMs: 60_000,
};

/**
 * Each setting's URL parameter, the range it takes, and how the whole number in the URL and the form
 * becomes the setting: percent to a share (÷ 100), seconds to milliseconds (× 1000).
 */
export const SETTING_PARAMS = {
  answerWithinSeconds: { param: 'sla', min: 1, max: 600, multiply: 1, divide: 1 },
  shortAbandonSeconds: { param: 'slshort', min: 0, max: 60, multiply: 1, divide: 1 },
  warnBelow: { param: 'slwarn', min: 1, max: 100, multiply: 1, divide: 100 },
  criticalBelow: { param: 'slcrit', min: 0, max: 99, multiply: 1, divide: 100 },
  waitWarnMs: { param: 'waitwarn', min: 1, max: 3600, multiply: 1000, divide: 1 },
  waitCriticalMs: { param: 'waitcrit', min: 2, max: 7200, multiply: 1000, divide: 1 },
} as const satisfies Record<keyof ServiceLevelSettings, { param: string; min: number; max: number; multiply: number; divide: number }>;

type Key = keyof ServiceLevelSettings;
const KEYS = Object.keys(SETTING_PARAMS) as Key[];

/** A setting from its whole number: 70 % is 0.7 exactly as written (70 × 0.01 would be 0.7000000000000001). */
export const fromUnits = (key: Key, units: number): number => (units * SETTING_PARAMS[key].multiply) / SETTING_PARAMS[key].divide;

/** A setting's whole number, as the URL and the form show it. */
export const toUnits = (key: Key, value: number): number => Math.round((value * SETTING_PARAMS[key].divide) / SETTING_PARAMS[key].multiply);

/** The settings a URL gives; a value out of range, not a whole number, or out of order (critical past warning) is the default. */
export const readServiceLevelSettings = (params: URLSearchParams): ServiceLevelSettings => {
  const settings = { ...defaultServiceLevelSettings };
  for (const key of KEYS) {
    const { param, min, max } = SETTING_PARAMS[key];
    const text = params.get(param);
    const value = text === null || !/^\d{1,4}$/.test(text) ? NaN : Number(text);
    if (value >= min && value <= max) settings[key] = fromUnits(key, value);
  }
  if (settings.criticalBelow >= settings.warnBelow) {
    settings.warnBelow = defaultServiceLevelSettings.warnBelow;
    settings.criticalBelow = Math.min(settings.criticalBelow, defaultServiceLevelSettings.criticalBelow);
  }
  if (settings.waitCriticalMs <= settings.waitWarnMs) settings.waitCriticalMs = Math.max(settings.waitWarnMs + 1000, defaultServiceLevelSettings.waitCriticalMs);
  return settings;
};

/** The URL parameters of the settings, those at their default left out. */
export const writeServiceLevelSettings = (params: URLSearchParams, settings: ServiceLevelSettings): URLSearchParams => {
  const next = new URLSearchParams(params);
  for (const key of KEYS) {
    const { param } = SETTING_PARAMS[key];
    if (settings[key] === defaultServiceLevelSettings[key]) next.delete(param);
    else next.set(param, String(toUnits(key, settings[key])));
  }
  return next;
};

/**
 * The settings of a view of one queue: the queue's own definition and target where the URL sets
 * none (its target warns; ten points under it is critical).
 */
export const withQueueDefaults = (settings: ServiceLevelSettings, params: URLSearchParams, queue: QueueSettings | undefined): ServiceLevelSettings => {
  if (!queue) return settings;
  const given = (key: Key) => params.has(SETTING_PARAMS[key].param);
  const next = { ...settings };
  if (!given('answerWithinSeconds')) next.answerWithinSeconds = queue.answerWithinSeconds;
  if (!given('shortAbandonSeconds')) next.shortAbandonSeconds = queue.shortAbandonSeconds;
  if (!given('warnBelow') && !given('criticalBelow')) {
    next.warnBelow = queue.serviceLevelTarget;
    next.criticalBelow = Math.max(0, Math.round((queue.serviceLevelTarget - 0.1) * 100) / 100);
  }
  return next;
};

export const useServiceLevelSettings = (): [ServiceLevelSettings, (next: ServiceLevelSettings) => void] => {
  const [params, setParams] = useSearchParams();
  const queue = useQueueScope()?.single;
  const settings = withQueueDefaults(readServiceLevelSettings(params), params, queue);
  const save = useCallback((next: ServiceLevelSettings) => setParams((current) => writeServiceLevelSettings(current, next), { replace: true }), [setParams]);
  return [settings, save];
};

/** Which level a service level (a share) is at. */
export const serviceLevelAlert = (level: number | null, settings: ServiceLevelSettings): 'critical' | 'warning' | undefined =>
  level === null ? undefined : level < settings.criticalBelow ? 'critical' : level < settings.warnBelow ? 'warning' : undefined;

/** Which level the longest wait now is at. */
export const waitAlert = (waitMs: number | undefined, settings: ServiceLevelSettings): 'critical' | 'warning' | undefined =>
  waitMs === undefined ? undefined : waitMs >= settings.waitCriticalMs ? 'critical' : waitMs >= settings.waitWarnMs ? 'warning' : undefined;
