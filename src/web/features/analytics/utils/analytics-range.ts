/** The analytics page's time range: a preset (1 h, 24 h, 7 d) or a custom window, as URL parameters. */
import { MAX_WINDOW_MS } from '../../../../contract/call-record.js';
import { roundDown } from '../../../lib/time-ticks.js';

/** Each preset with the bucket the service would pick for it (docs/api.md: 1 h → 60 s, 24 h → 5 min, 7 d → 30 min). */
export const RANGE_PRESETS = [
  { id: '1h', label: '1 h', ms: 3_600_000, bucketSeconds: 60 },
  { id: '24h', label: '24 h', ms: 86_400_000, bucketSeconds: 300 },
  { id: '7d', label: '7 d', ms: 7 * 86_400_000, bucketSeconds: 1800 },
] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number]['id'];
export const DEFAULT_PRESET: RangePreset = '24h';

export type AnalyticsRange = { kind: 'preset'; preset: RangePreset } | { kind: 'custom'; from: number; to: number };

const isPreset = (text: string | null): text is RangePreset => RANGE_PRESETS.some((p) => p.id === text);

/** `?range=7d`, or `?from=…&to=…` (ISO instants) for a custom window; anything else is the default. */
export const parseAnalyticsRange = (params: URLSearchParams): AnalyticsRange => {
  const from = Date.parse(params.get('from') ?? '');
  const to = Date.parse(params.get('to') ?? '');
  if (params.get('range') === 'custom' && from < to && to - from <= MAX_WINDOW_MS) return { kind: 'custom', from, to };
  const preset = params.get('range');
  return { kind: 'preset', preset: isPreset(preset) ? preset : DEFAULT_PRESET };
};

export const rangeParams = (range: AnalyticsRange): Record<string, string> =>
  range.kind === 'preset'
    ? { range: range.preset }
    : { range: 'custom', from: new Date(range.from).toISOString(), to: new Date(range.to).toISOString() };

export interface RangeWindow {
  from: number;
  to: number;
  /** Set for presets; a custom window leaves the choice to the service, whose buckets start at `from`. */
  bucketSeconds?: number;
}

/**
 * The window a range covers at `now`. A preset ends at the current minute, so one window (and
 * one query) serves a whole minute, and starts on a bucket boundary of the zone's clock, so its
 * buckets begin at 09:00 and 09:30 rather than 09:01 and 09:31.
 */
export const rangeWindow = (range: AnalyticsRange, now: number, zone: string): RangeWindow => {
  if (range.kind === 'custom') return { from: range.from, to: range.to };
  const to = Math.floor(now / 60_000) * 60_000;
  const preset = RANGE_PRESETS.find((p) => p.id === range.preset) ?? RANGE_PRESETS[1];
  return { from: roundDown(to - preset.ms, zone, preset.bucketSeconds / 60), to, bucketSeconds: preset.bucketSeconds };
};

/** Why a custom window cannot be shown, or undefined when it can. */
export const customWindowProblem = (from: number | undefined, to: number | undefined): string | undefined => {
  if (from === undefined || to === undefined) return 'Enter both a start and an end.';
  if (from >= to) return 'The start must be before the end.';
  if (to - from > MAX_WINDOW_MS) return 'A window may span at most 31 days.';
  return undefined;
};
