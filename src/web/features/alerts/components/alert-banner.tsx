/**
 * The alerts that are tripped now: what, against which rule, since when, each with "Acknowledge",
 * which keeps it on screen but quiet until it clears. Critical first. Level as icon, word and colour.
 *
 * On the live view the strip is one line high whatever trips and clears, so the figures below never
 * jump (unless the reader opens the list): the worst alert still asking for attention, or a quiet
 * "No alerts". The line opens the full list, where the others and any text cut short on a narrow
 * screen are.
 */
import { useId, useRef, useState, type Ref } from 'react';
import { Button } from '../../../components/ui/button.js';
import { CheckIcon, ChevronIcon, CriticalIcon, WarningIcon } from '../../../components/ui/icons.js';
import { formatShortTime } from '../../../lib/format.js';
import { useTimeZone } from '../../../lib/time-zone.js';
import type { AlertCenter } from '../hooks/use-alert-center.js';
import type { TrackedAlert } from '../utils/alert-tracker.js';
import { ALERT_LINE as LINE, AlertStripNote } from './alert-line.js';

const looks = {
  critical: { box: 'border-danger bg-danger-bg text-danger', icon: <CriticalIcon />, word: 'Critical' },
  warning: { box: 'border-warn bg-warn-bg text-warn', icon: <WarningIcon />, word: 'Warning' },
} as const;

const quiet = 'border-line bg-panel text-muted';

const Acknowledgement = ({
  alert,
  onAcknowledge,
  compact = false,
}: {
  alert: TrackedAlert;
  onAcknowledge: () => void;
  compact?: boolean;
}) =>
  alert.acknowledged ? (
    <span className="shrink-0 text-sm font-medium whitespace-nowrap">
      Acknowledged<span className="max-sm:sr-only">: quiet until it clears</span>
    </span>
  ) : (
    <Button size="sm" className="shrink-0" onClick={onAcknowledge}>
      {/* On one line of a phone the word would leave the alert's own text no room. */}
      {compact ? (
        <span className="sm:hidden">
          <CheckIcon />
        </span>
      ) : null}
      <span className={compact ? 'max-sm:sr-only' : undefined}>Acknowledge</span> <span className="sr-only">{alert.title}</span>
    </Button>
  );

/** What tripped, against which rule, since when: in the full list wrapped, on the line cut to fit (`className`). */
const AlertText = ({ alert, timeZone, className }: { alert: TrackedAlert; timeZone: string; className: string }) => (
  <span className={className}>
    <strong className="font-semibold text-ink">{alert.title}</strong> <span>— {alert.rule}</span>{' '}
    <span className="text-sm whitespace-nowrap">since {formatShortTime(alert.since, timeZone)}</span>
  </span>
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
      <AlertText alert={alert} timeZone={timeZone} className="min-w-[12rem] flex-1" />
      <Acknowledgement alert={alert} onAcknowledge={onAcknowledge} />
    </li>
  );
};

/**
 * The alert most in need of attention on one line, which opens and closes the full list below it:
 * every alert, none cut short. A count says how many more there are.
 */
const AlertLine = ({
  alert,
  more,
  expanded,
  listId,
  toggleRef,
  onToggle,
  onAcknowledge,
  timeZone,
}: {
  alert: TrackedAlert;
  more: number;
  expanded: boolean;
  listId: string;
  toggleRef: Ref<HTMLButtonElement>;
  onToggle: () => void;
  onAcknowledge: () => void;
  timeZone: string;
}) => {
  const look = looks[alert.level];
  return (
    <div className={`${LINE} border-2 ${alert.acknowledged ? quiet : look.box}`}>
      <button
        ref={toggleRef}
        type="button"
        aria-expanded={expanded}
        aria-controls={expanded ? listId : undefined}
        onClick={onToggle}
        className="flex h-full min-w-0 flex-1 items-center gap-2 text-left focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent"
      >
        <span className="flex shrink-0 items-center gap-2 font-bold">
          {look.icon}
          <span className="max-sm:sr-only">{look.word}</span>
        </span>{' '}
        <AlertText alert={alert} timeZone={timeZone} className="min-w-0 flex-1 truncate" />
        {more > 0 ? (
          <>
            {' '}
            <span className="shrink-0 rounded-full border border-current px-2 text-sm font-semibold">
              +{more} <span className="sr-only">more</span>
            </span>
          </>
        ) : null}
        <span className={expanded ? 'rotate-180' : undefined}>
          <ChevronIcon />
        </span>
      </button>
      <Acknowledgement alert={alert} onAcknowledge={onAcknowledge} compact />
    </div>
  );
};

export const AlertBanner = ({ center }: { center: AlertCenter }) => {
  const timeZone = useTimeZone();
  const [expanded, setExpanded] = useState(false);
  const listId = useId();
  const toggle = useRef<HTMLButtonElement>(null);
  // The worst alert still asking for attention; an acknowledged one only when all are.
  const shown = center.alerts.find((alert) => !alert.acknowledged) ?? center.alerts[0];
  // Everything cleared: the next alert comes back as one line again.
  if (shown === undefined && expanded) setExpanded(false);
  // The button pressed turns into a word: focus stays in the strip, on its line.
  const acknowledge = (alert: TrackedAlert) => {
    center.acknowledge(alert.id);
    toggle.current?.focus();
  };
  if (!center.ready) return <AlertStripNote>Checking alerts…</AlertStripNote>;
  if (shown === undefined)
    return (
      <AlertStripNote>
        <CheckIcon />
        No alerts
      </AlertStripNote>
    );
  return (
    <section aria-label="Alerts">
      <AlertLine
        alert={shown}
        more={center.alerts.length - 1}
        expanded={expanded}
        listId={listId}
        toggleRef={toggle}
        onToggle={() => setExpanded(!expanded)}
        timeZone={timeZone}
        onAcknowledge={() => acknowledge(shown)}
      />
      {expanded ? (
        <ul id={listId} className="mt-2 flex flex-col gap-2">
          {center.alerts.map((alert) => (
            <AlertRow key={alert.id} alert={alert} timeZone={timeZone} onAcknowledge={() => acknowledge(alert)} />
          ))}
        </ul>
      ) : null}
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
              // Over the chart, as tall as its heading (title and legend), which would show below a thinner row.
              className={`flex items-center gap-5 rounded-lg border-4 px-5 ${overlay ? 'py-3' : 'py-1'} text-[1.75rem] leading-tight ${look.box}`}
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
