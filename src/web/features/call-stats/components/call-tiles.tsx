/** The supervisor's numbers at a glance: live calls, by direction, ringing, missed lately, the longest call, today's peak. */
import { useId, useMemo, type ReactNode } from 'react';
import type { CallRecord } from '../../../../contract/call-record.js';
import type { ProviderScope } from '../../../../contract/paths.js';
import { RECENT_WINDOW_MS } from '../../../lib/api/recent-calls-query.js';
import { useQueueScope } from '../../../lib/queue-scope.js';
import { useNow } from '../../../lib/clock.js';
import { peakToday, samplesKeyForScopes, useConcurrencySamples } from '../../../lib/concurrency-samples.js';
import { formatAge, formatDuration, formatPhoneNumber, formatShortTime } from '../../../lib/format.js';
import { usePhoneCountry, type CountryCode } from '../../../lib/phone-country.js';
import { usePhoneRulesReady } from '../../../lib/phone-rules-loader.js';
import { useThresholds } from '../../../lib/thresholds.js';
import { useTimeZone } from '../../../lib/time-zone.js';
import { useRecentMissed, type RecentMissed } from '../hooks/use-recent-missed.js';
import { agentLabel, liveStats, type LongestCall } from '../utils/live-stats.js';
import { StatTile, type TileSize } from '../../../components/ui/stat-tile.js';

const grids: Record<TileSize, string> = {
  // No row gap: tiles span three rows each (see StatTile) and keep their distance with a margin.
  normal: '-mb-3 gap-x-3',
  // Two rows: the wallboard's rem follows the screen, so its height is known and the chart gets the rest.
  wall: '-mb-4 gap-x-4',
};
const wallColumns = (tiles: number) => (tiles > 6 || tiles === 4 ? 'grid-cols-4' : 'grid-cols-3');
/** Ten tiles: two rows of five from a laptop's width up, rather than a row of seven and a ragged three. */
const deskColumns = (tiles: number) => (tiles === 10 ? 'grid-cols-2 sm:grid-cols-3 lg:grid-cols-5' : 'grid-cols-[repeat(auto-fit,minmax(10rem,1fr))]');

export type CallTileName = 'live' | 'direction' | 'ringing' | 'missed' | 'longest' | 'peak';
const ALL_TILES: readonly CallTileName[] = ['live', 'direction', 'ringing', 'missed', 'longest', 'peak'];

/** The units ("in", "out") in ems of the number beside them, so they shrink with it on a narrow tile. */
const unitEm: Record<TileSize, number> = { normal: 0.45, wall: 0.35 };
const unitClass: Record<TileSize, string> = {
  normal: 'text-[0.45em] font-medium text-muted',
  wall: 'text-[0.35em] font-medium text-muted',
};

/**
 * The width of "12 in · 3 out" in ems of the number's font: a tabular digit of a semibold sans is
 * at most 0.7 em; the two spaces, the gaps and the dot about 1.7 em; the units "in" and "out" 2.6
 * ems of their own size.
 */
const directionWidthEm = (inbound: number, outbound: number, size: TileSize) =>
  0.7 * `${inbound}${outbound}`.length + 1.7 + 2.6 * unitEm[size];

/** While the first poll is on its way a count is unknown, not zero. */
const UNKNOWN = '—';

/** A count of as many digits as `count` has, each an 8 (at least one): a warning's widest words. */
const widestCount = (count: number) => '8'.repeat(String(Math.max(1, Math.trunc(count))).length);

/**
 * The number first and whole (it may wrap at its spaces, never be cut), with the direction; then
 * who is talking, on a line that gives way (ellipsis, full text on hover) when the tile is narrow.
 */
const LongestDetail = ({ longest, country }: { longest: LongestCall; country: CountryCode }) => {
  const { call } = longest;
  const people = [agentLabel(call) ?? 'No agent', call.remoteName].filter(Boolean).join(' ↔ ');
  return (
    <>
      <span className="block">
        <span className="tabular">{formatPhoneNumber(call.remoteNumber, country)}</span>{' '}
        <span className="whitespace-nowrap">· {call.isOutbound ? 'outbound' : 'inbound'}</span>
      </span>
      <span className="block truncate" title={people}>
        {people}
      </span>
    </>
  );
};

const missedDetail = (missed: RecentMissed, now: number, timeZone: string): string => {
  if (missed.status === 'pending') return 'Loading…';
  if (missed.status === 'error') return 'Not available right now';
  if (missed.partial) return 'At least: some providers did not answer';
  return `Since ${formatShortTime(now - RECENT_WINDOW_MS, timeZone)}`;
};

export const CallTiles = ({
  calls,
  scopes,
  loading,
  size = 'normal',
  tiles = ALL_TILES,
  leading,
  leadingCount = 0,
}: {
  calls: CallRecord[];
  scopes: ProviderScope[];
  loading: boolean;
  size?: TileSize;
  /** Which of these tiles to show, in their order. */
  tiles?: readonly CallTileName[];
  /** Tiles of other figures, first in the same grid (lined up with these). */
  leading?: ReactNode;
  leadingCount?: number;
}) => {
  const now = useNow();
  const [thresholds] = useThresholds();
  const timeZone = useTimeZone();
  const country = usePhoneCountry();
  // Re-renders the longest call's number when the phone rules arrive.
  usePhoneRulesReady();
  const stats = useMemo(() => liveStats(calls, now, thresholds), [calls, now, thresholds]);
  const missed = useRecentMissed(scopes, calls, now);
  const samples = useConcurrencySamples(samplesKeyForScopes(scopes, useQueueScope()?.param));
  const peak = peakToday(samples, stats.live, now, timeZone);
  const known = (value: number) => (loading ? UNKNOWN : value);
  const limit = thresholds.concurrentCalls;
  const headingID = useId();
  const elements: Record<CallTileName, ReactNode> = {
    live: (
      <StatTile
        key="live"
        size={size}
        busy={loading}
        title="Live calls now"
        value={known(stats.live)}
        detail={loading || stats.atLimit ? undefined : `Alert at ${limit}`}
        warning={!loading && stats.atLimit ? `Alert: ${stats.live > limit ? 'over' : 'at'} ${limit}` : undefined}
        warningPlaceholder={`Alert: over ${limit}`}
      />
    ),
    direction: (
      <StatTile
        key="direction"
        size={size}
        busy={loading}
        title="Inbound / outbound"
        valueWidthEm={loading ? undefined : directionWidthEm(stats.inbound, stats.outbound, size)}
        value={
          loading ? (
            UNKNOWN
          ) : (
            <span className="flex items-baseline gap-x-[0.3em] whitespace-nowrap">
              <span className="whitespace-nowrap">
                {stats.inbound} <span className={unitClass[size]}>in</span>
              </span>
              <span aria-hidden="true">·</span>
              <span className="whitespace-nowrap">
                {stats.outbound} <span className={unitClass[size]}>out</span>
              </span>
            </span>
          )
        }
        detail="Live calls by direction"
      />
    ),
    ringing: (
      <StatTile
        key="ringing"
        size={size}
        busy={loading}
        title="Ringing"
        value={known(stats.ringing)}
        detail={
          loading
            ? undefined
            : stats.longestRingMs === undefined
              ? 'Nobody waiting'
              : `Longest ring ${formatDuration(stats.longestRingMs)}`
        }
        warning={
          !loading && stats.longRings > 0 ? `${stats.longRings} ringing over ${formatAge(thresholds.longRingMs)}` : undefined
        }
        // As wide as the warning can be: no more calls ring long than ring at all, and an 8 is as
        // wide as any digit. Sized for one digit, the warning of 10 calls wrapped the tile's header.
        warningPlaceholder={`${widestCount(stats.ringing)} ringing over ${formatAge(thresholds.longRingMs)}`}
      />
    ),
    missed: (
      <StatTile
        key="missed"
        size={size}
        busy={missed.status === 'pending'}
        title="Missed, last 15 min"
        value={missed.status === 'ready' ? missed.count : UNKNOWN}
        detail={missedDetail(missed, now, timeZone)}
      />
    ),
    longest: (
      <StatTile
        key="longest"
        size={size}
        busy={loading}
        title="Longest live call"
        value={loading || !stats.longest ? UNKNOWN : formatDuration(stats.longest.durationMs)}
        detail={
          loading ? undefined : stats.longest ? (
            <LongestDetail longest={stats.longest} country={country} />
          ) : (
            'No call in progress'
          )
        }
        warning={!loading && stats.longest?.overThreshold ? `Over ${formatAge(thresholds.longCallMs)}` : undefined}
        warningPlaceholder={`Over ${formatAge(thresholds.longCallMs)}`}
        tallDetail
      />
    ),
    peak: (
      <StatTile
        key="peak"
        size={size}
        busy={loading}
        title={peak.since === undefined ? 'Peak today' : `Peak today (since ${formatShortTime(peak.since, timeZone)})`}
        value={known(peak.total)}
        detail={loading ? undefined : `at ${formatShortTime(peak.at, timeZone)}`}
      />
    ),
  };

  return (
    // Never squeezed by a page that fills the screen (the wallboard): the chart gives way instead.
    // A container, so that a tile can hold the lines its detail takes at the grid's width.
    <section aria-labelledby={headingID} className="@container/tiles shrink-0">
      <h2 id={headingID} className="sr-only">
        Call statistics
      </h2>
      <div className={`grid ${grids[size]} ${size === 'wall' ? wallColumns(tiles.length + leadingCount) : deskColumns(tiles.length + leadingCount)}`}>
        {leading}
        {tiles.map((name) => elements[name])}
      </div>
    </section>
  );
};
