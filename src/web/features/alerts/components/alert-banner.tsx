/**
 * The alerts that are tripped now: what, against which rule, since when, each with "Acknowledge",
 * which keeps it on screen but quiet until it clears. Critical first. Level as icon, word and colour.
 */
import { Button } from '../../../components/ui/button.js';
import { CriticalIcon, WarningIcon } from '../../../components/ui/icons.js';
import { formatShortTime } from '../../../lib/format.js';
import { useTimeZone } from '../../../lib/time-zone.js';
import type { AlertCenter } from '../hooks/use-alert-center.js';
import type { TrackedAlert } from '../utils/alert-tracker.js';

const looks = {
  critical: { box: 'border-danger bg-danger-bg text-danger', icon: <CriticalIcon />, word: 'Critical' },
  warning: { box: 'border-warn bg-warn-bg text-warn', icon: <WarningIcon />, word: 'Warning' },
} as const;

const quiet = 'border-line bg-panel text-muted';

const AlertRow = ({ alert, onAcknowledge, timeZone }: { alert: TrackedAlert; onAcknowledge: () => void; timeZone: string }) => {
  const look = looks[alert.level];
  return (
    <li className={`flex flex-wrap items-center gap-x-4 gap-y-1 rounded-md border-2 px-4 py-2 ${alert.acknowledged ? quiet : look.box}`}>
      <span className="flex items-center gap-2 font-bold">
        {look.icon}
        {look.word}
      </span>
      <span className="min-w-[12rem] flex-1">
        <strong className="font-semibold text-ink">{alert.title}</strong> <span>— {alert.rule}</span>{' '}
        <span className="text-sm whitespace-nowrap">since {formatShortTime(alert.since, timeZone)}</span>
      </span>
      {alert.acknowledged ? (
        <span className="text-sm font-medium">Acknowledged: quiet until it clears</span>
      ) : (
        <Button size="sm" onClick={onAcknowledge}>
          Acknowledge <span className="sr-only">{alert.title}</span>
        </Button>
      )}
    </li>
  );
};

export const AlertBanner = ({ center }: { center: AlertCenter }) => {
  const timeZone = useTimeZone();
  if (center.alerts.length === 0) return null;
  return (
    <section aria-label="Alerts">
      <ul className="flex flex-col gap-2">
        {center.alerts.map((alert) => (
          <AlertRow key={alert.id} alert={alert} timeZone={timeZone} onAcknowledge={() => center.acknowledge(alert.id)} />
        ))}
      </ul>
    </section>
  );
};

/** At most this many on a wall: it cannot scroll, and the numbers below need the room. */
const WALL_ROWS = 2;

/**
 * The wall's strip: large, one line per alert, the worst first; acknowledged ones leave the strip.
 * `overlay` lays it over the top of what is under it, taking no height of its own.
 */
export const WallAlertBanner = ({ center, overlay = false }: { center: AlertCenter; overlay?: boolean }) => {
  const timeZone = useTimeZone();
  const open = center.alerts.filter((alert) => !alert.acknowledged);
  if (open.length === 0) return null;
  const shown = open.slice(0, WALL_ROWS);
  return (
    <section aria-label="Alerts" className={overlay ? 'absolute inset-x-0 top-0 z-10' : 'shrink-0'}>
      <ul className="flex flex-col gap-2">
        {shown.map((alert, i) => {
          const look = looks[alert.level];
          return (
            <li key={alert.id} className={`flex items-center gap-5 rounded-lg border-4 px-5 py-1 text-[1.75rem] leading-tight ${look.box}`}>
              <span className="flex items-center gap-2 font-extrabold whitespace-nowrap">
                {look.icon}
                {look.word}
              </span>
              <span className="min-w-0 flex-1 truncate">
                <strong className="font-bold">{alert.title}</strong> — {alert.rule}
              </span>
              <span className="text-[1.25rem] whitespace-nowrap">
                since {formatShortTime(alert.since, timeZone)}
                {i === shown.length - 1 && open.length > shown.length ? ` · +${open.length - shown.length} more` : ''}
              </span>
              <Button size="sm" onClick={() => center.acknowledge(alert.id)} className="text-[1rem]">
                Acknowledge <span className="sr-only">{alert.title}</span>
              </Button>
            </li>
          );
        })}
      </ul>
    </section>
  );
};
