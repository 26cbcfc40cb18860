/**
 * The figures a floor is steered by: service level (the last 15 minutes, and today), who waits now
 * and for how long, speed of answer and abandonment today. Each says its definition, with the two
 * parameters it is computed with, and past the levels set in the URL it warns in words and colour.
 */
import type { CallRecord } from '../../../../contract/call-record.js';
import type { ProviderScope } from '../../../../contract/paths.js';
import { SERVICE_LEVEL_DEFINITIONS } from '../../../../contract/service-levels.js';
import { StatTile, type TileSize } from '../../../components/ui/stat-tile.js';
import { useNow } from '../../../lib/clock.js';
import { formatDuration } from '../../../lib/format.js';
import { serviceLevelAlert, useServiceLevelSettings, waitAlert } from '../../../lib/service-level-settings.js';
import { useTimeZone } from '../../../lib/time-zone.js';
import { useLiveServiceLevels, type LiveServiceLevels } from '../hooks/use-live-service-levels.js';
import type { TileFigures } from '../utils/combine-figures.js';
import { waitingNow } from '../utils/waiting.js';

const UNKNOWN = '—';

/** How many tiles this renders, for a grid that lines them up with others. */
export const SERVICE_LEVEL_TILES = 4;

/** A figure and its unit joined by a no-break space: a tile's line never ends on "99" with "%" below. */
const unit = (figure: number, symbol: string) => `${figure}\u00a0${symbol}`;
const percent = (share: number | null) => (share === null ? UNKNOWN : unit(Math.round(share * 100), '%'));
const seconds = (value: number | null) => (value === null ? UNKNOWN : formatDuration(value * 1000));

const unavailable = (figures: LiveServiceLevels): string | undefined =>
  figures.status === 'pending' ? 'Loading…' : figures.status === 'error' ? 'Not available right now' : undefined;

const ready = (figures: LiveServiceLevels): { recent: TileFigures; today: TileFigures } | undefined =>
  figures.status === 'ready' ? figures : undefined;

export const ServiceLevelTiles = ({
  calls,
  scopes,
  loading,
  size = 'normal',
}: {
  calls: readonly CallRecord[];
  scopes: readonly ProviderScope[];
  loading: boolean;
  size?: TileSize;
}) => {
  const now = useNow();
  const timeZone = useTimeZone();
  const [settings] = useServiceLevelSettings();
  const definition = { answerWithinSeconds: settings.answerWithinSeconds, shortAbandonSeconds: settings.shortAbandonSeconds };
  const figures = useLiveServiceLevels(scopes, calls, definition, timeZone, now);
  const waiting = waitingNow(calls, now);
  const shown = ready(figures);
  const rule = `answered within ${settings.answerWithinSeconds} s`;
  const shortRule = `callers who gave up within ${settings.shortAbandonSeconds} s left out`;
  const levelAlert = serviceLevelAlert(shown?.recent.serviceLevel ?? null, settings);
  const waitLevel = loading ? undefined : waitAlert(waiting.longestMs, settings);
  const notReady = unavailable(figures);
  const partial = figures.status === 'ready' && figures.partial ? ' (some providers did not answer)' : '';

  return (
    <>
      <StatTile
        size={size}
        busy={figures.status === 'pending'}
        title="Service level"
        definition={`Of the inbound calls of the last 15 minutes, the share ${rule}, ${shortRule}: ${SERVICE_LEVEL_DEFINITIONS.serviceLevel} A call counts when it started.`}
        value={shown ? percent(shown.recent.serviceLevel) : UNKNOWN}
        detail={notReady ?? `Within ${unit(settings.answerWithinSeconds, 's')} in ${unit(15, 'min')} · today ${percent(shown?.today.serviceLevel ?? null)}${partial}`}
        warning={levelAlert ? `Below ${unit(Math.round((levelAlert === 'critical' ? settings.criticalBelow : settings.warnBelow) * 100), '%')}` : undefined}
        warningPlaceholder={`Below ${unit(Math.round(settings.warnBelow * 100), '%')}`}
        level={levelAlert}
      />
      <StatTile
        size={size}
        busy={loading}
        title="Waiting now"
        definition={`${SERVICE_LEVEL_DEFINITIONS.waiting} In the queue, or ringing an agent; the longest wait runs from the call's start.`}
        value={loading ? UNKNOWN : waiting.count}
        detail={
          loading
            ? undefined
            : waiting.longestMs === undefined
              ? 'Nobody waiting'
              : `Longest ${formatDuration(waiting.longestMs)}${waiting.queued > 0 ? ` · ${waiting.queued} in queue` : ''}`
        }
        warning={waitLevel ? `Over ${formatDuration(waitLevel === 'critical' ? settings.waitCriticalMs : settings.waitWarnMs)}` : undefined}
        warningPlaceholder={`Over ${formatDuration(settings.waitCriticalMs)}`}
        level={waitLevel}
      />
      <StatTile
        size={size}
        busy={figures.status === 'pending'}
        title="Speed of answer"
        definition={`Today's ${SERVICE_LEVEL_DEFINITIONS.averageAnswerSeconds.charAt(0).toLowerCase()}${SERVICE_LEVEL_DEFINITIONS.averageAnswerSeconds.slice(1)}`}
        value={shown ? seconds(shown.today.averageAnswerSeconds) : UNKNOWN}
        detail={notReady ?? `Average today · longest ${seconds(shown?.today.longestAnswerSeconds ?? null)}`}
      />
      <StatTile
        size={size}
        busy={figures.status === 'pending'}
        title="Abandon rate"
        definition={`Today: ${SERVICE_LEVEL_DEFINITIONS.abandonRate} ${SERVICE_LEVEL_DEFINITIONS.abandoned} Here, ${shortRule}.`}
        value={shown ? percent(shown.today.abandonRate) : UNKNOWN}
        detail={notReady ?? `${shown?.today.abandoned ?? 0} of ${(shown?.today.answered ?? 0) + (shown?.today.abandoned ?? 0)} today · under ${settings.shortAbandonSeconds} s left out`}
      />
    </>
  );
};
