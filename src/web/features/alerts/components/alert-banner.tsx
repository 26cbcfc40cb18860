/**
 * The alerts that are tripped now: what, against which rule, since when, each with "Acknowledge",
 * which keeps it on screen but quiet until it clears. Critical first. Level as icon, word and colour.
 *
 * On the live view the strip is one line high whatever trips and clears, so the figures below never
 * jump: the worst alert, or a quiet "No alerts". The line opens the full list, where the others and
 * any text cut short on a narrow screen are.
 */
import { useId, useState } from 'react';
import { Button } from '../../../components/ui/button.js';
import { CheckIcon, ChevronIcon, CriticalIcon, WarningIcon } from '../../../components/ui/icons.js';
import { formatShortTime } from '../../../lib/format.js';
import { useTimeZone } from '../../../lib/time-zone.js';
import type { AlertCenter } from '../hooks/use-alert-center.js';
import type { TrackedAlert } from '../utils/alert-tracker.js';

const looks = {
  critical: { box: 'border-danger bg-danger-bg text-danger', icon: <CriticalIcon />, word: 'Critical' },
  warning: { box: 'border-warn bg-warn-bg text-warn', icon: <WarningIcon />, word: 'Warning' },
} as const;

const quiet = 'border-line bg-panel text-muted';

const Acknowledgement = ({ alert, onAcknowledge }: { alert: TrackedAlert; onAcknowledge: () => void }) =>
  alert.acknowledged ? (
    <span className="shrink-0 text-sm font-medium whitespace-nowrap">
      Acknowledged<span className="max-sm:sr-only">: quiet until it clears</span>
    </span>
  ) : (
    <Button size="sm" className="shrink-0" onClick={onAcknowledge}>
      Acknowledge <span className="sr-only">{alert.title}</span>
    </Button>
  );

const AlertRow = ({ alert, onAcknowledge, timeZone }: { alert: TrackedAlert; onAcknowledge: () => void; timeZone: string }) => {
  const look = looks[alert.level];
  return (
    <li
      className={`flex flex-wrap items-center gap-x-4 gap-y-1 rounded-md border-2 px-4 py-2 ${alert.acknowledged ? quiet : look.box}`}
    >
      <span className="flex items-center gap-2 font-bold">
        {look.icon}
        {look.word}
      </span>
      <span className="min-w-[12rem] flex-1">
        <strong className="font-semibold text-ink">{alert.title}</strong> <span>— {alert.rule}</span>{' '}
        <span className="text-sm whitespace-nowrap">since {formatShortTime(alert.since, timeZone)}</span>
      </span>
      <Acknowledgement alert={alert} onAcknowledge={onAcknowledge} />
    </li>
  );
};

/** One line, always this high: the strip's height must not change as alerts trip and clear. */
const LINE = 'flex h-11 items-center gap-3 rounded-md px-3';

/**
 * The worst alert on one line, which opens the full list: every alert, none cut short. A count
 * says how many more there are.
 */
const AlertLine = ({
  alert,
  more,
  listId,
  onOpen,
  onAcknowledge,
  timeZone,
}: {
  alert: TrackedAlert;
  more: number;
  listId: string;
  onOpen: () => void;
  onAcknowledge: () => void;
  timeZone: string;
}) => {
  const look = looks[alert.level];
  const since = `since ${formatShortTime(alert.since, timeZone)}`;
  return (
    <div className={`${LINE} border-2 ${alert.acknowledged ? quiet : look.box}`}>
      <button
        type="button"
        aria-expanded={false}
        aria-controls={listId}
        onClick={onOpen}
        title={`${alert.title} — ${alert.rule}, ${since}`}
        className="flex h-full min-w-0 flex-1 items-center gap-2 text-left focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent"
      >
        <span className="flex shrink-0 items-center gap-2 font-bold">
          {look.icon}
          <span className="max-sm:sr-only">{look.word}</span>
        </span>{' '}
        <span className="min-w-0 flex-1 truncate">
          <strong className="font-semibold text-ink">{alert.title}</strong> <span>— {alert.rule}</span>{' '}
          <span className="text-sm">{since}</span>
        </span>
        {more > 0 ? (
          <>
            {' '}
            <span className="shrink-0 rounded-full border border-current px-2 text-sm font-semibold">
              +{more} <span className="sr-only">more</span>
            </span>
          </>
        ) : null}
        <ChevronIcon />
      </button>
      <Acknowledgement alert={alert} onAcknowledge={onAcknowledge} />
    </div>
  );
};

export const AlertBanner = ({ center }: { center: AlertCenter }) => {
  const timeZone = useTimeZone();
  const [expanded, setExpanded] = useState(false);
  const listId = useId();
  const [worst] = center.alerts;
  // Everything cleared: the next alert comes back as one line again.
  if (worst === undefined && expanded) setExpanded(false);
  return (
    <section aria-label="Alerts">
      {worst === undefined ? (
        <p className={`${LINE} border border-line text-sm text-muted`}>
          <CheckIcon />
          No alerts
        </p>
      ) : expanded ? (
        <div className="flex flex-col gap-2">
          <div className="flex justify-end">
            <Button size="sm" variant="ghost" aria-expanded aria-controls={listId} onClick={() => setExpanded(false)}>
              Show less
            </Button>
          </div>
          <ul id={listId} className="flex flex-col gap-2">
            {center.alerts.map((alert) => (
              <AlertRow key={alert.id} alert={alert} timeZone={timeZone} onAcknowledge={() => center.acknowledge(alert.id)} />
            ))}
          </ul>
        </div>
      ) : (
        <AlertLine
          alert={worst}
          more={center.alerts.length - 1}
          listId={listId}
          onOpen={() => setExpanded(true)}
          timeZone={timeZone}
          onAcknowledge={() => center.acknowledge(worst.id)}
        />
      )}
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
            <li
              key={alert.id}
              className={`flex items-center gap-5 rounded-lg border-4 px-5 py-1 text-[1.75rem] leading-tight ${look.box}`}
            >
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
