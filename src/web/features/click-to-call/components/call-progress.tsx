/** The placed call's progress: a headline with a ticking time, and the steps with the current one marked. */
import { Fragment, useEffect, useId } from 'react';
import type { CallRecord } from '../../../../contract/call-record.js';
import { useAnnounce } from '../../../lib/announcer.js';
import { formatDuration, formatPhoneNumber } from '../../../lib/format.js';
import { NOT_LISTED_AFTER_MS, useCallProgress, type CallProgress } from '../hooks/use-call-progress.js';
import type { PlacedCall } from '../hooks/use-place-call.js';

type StepState = 'done' | 'current' | 'upcoming' | 'skipped';

/** A time with the word saying what it measures, in the live table's words ("ringing", "talking", "total"). */
interface Timing {
  value: string;
  label: string;
  labelFirst?: boolean;
}

interface View {
  headline: string;
  /** Beside the headline: a ticking time while the call is live; talk time and total once it ended. */
  times?: Timing[];
  detail?: string;
  tone: string;
  /** Said once per step through the page's live region: ticks and re-renders say nothing new. */
  announcement: string;
  /** Accepted, ringing, connected, ended. */
  steps: readonly StepState[];
  endLabel: string;
}

const NOT_LISTED_SECONDS = NOT_LISTED_AFTER_MS / 1000;

const viewOf = (progress: CallProgress, placed: PlacedCall, number: string): View => {
  const ringingAnnouncement = `Call placed. Ringing ${placed.callerName}'s phone.`;
  switch (progress.phase) {
    case 'accepted':
      return {
        headline: `Ringing ${placed.callerName}'s phone…`,
        times: [{ label: 'ringing', value: formatDuration(progress.elapsedMs), labelFirst: true }],
        tone: 'text-ringing',
        announcement: ringingAnnouncement,
        steps: ['done', 'current', 'upcoming', 'upcoming'],
        endLabel: 'Ended',
      };
    case 'ringing':
      return {
        // Two-step providers ring the agent, then the customer; the record cannot tell the two apart.
        headline: `Ringing ${placed.callerName}, then ${number}…`,
        times: [{ label: 'ringing', value: formatDuration(progress.elapsedMs), labelFirst: true }],
        tone: 'text-ringing',
        announcement: ringingAnnouncement,
        steps: ['done', 'current', 'upcoming', 'upcoming'],
        endLabel: 'Ended',
      };
    case 'not-listed':
      return {
        headline: 'Call accepted, not in the live list yet',
        detail: `${placed.providerName} accepted the call, but it has not appeared in the live list after ${NOT_LISTED_SECONDS} s. The list may lag: check ${placed.callerName}'s phone.`,
        tone: 'text-warn',
        announcement: `The call was accepted but has not appeared in the live list after ${NOT_LISTED_SECONDS} seconds.`,
        steps: ['done', 'current', 'upcoming', 'upcoming'],
        endLabel: 'Ended',
      };
    case 'connected':
      return {
        headline: 'Connected',
        times: [{ label: 'talking', value: formatDuration(progress.talkMs), labelFirst: true }],
        tone: 'text-talking',
        announcement: `Connected: ${placed.callerName} and ${number} are talking.`,
        steps: ['done', 'done', 'current', 'upcoming'],
        endLabel: 'Ended',
      };
    case 'not-answered':
      return {
        headline: 'Not answered (busy or no answer)',
        times: [{ label: 'total', value: formatDuration(progress.totalMs) }],
        tone: 'text-missed',
        announcement: `The call was not answered (busy or no answer), ${formatDuration(progress.totalMs)} total.`,
        steps: ['done', 'done', 'skipped', 'current'],
        endLabel: 'Not answered (busy or no answer)',
      };
    case 'ended': {
      // Talk time alone read as the call's length beside the table's start-to-end "total": name both.
      const talked = formatDuration(progress.talkMs);
      const total = formatDuration(progress.totalMs);
      return {
        headline: 'Call ended',
        times: [
          { label: 'talked', value: talked, labelFirst: true },
          { label: 'total', value: total },
        ],
        tone: 'text-muted',
        announcement: `Call ended: talked ${talked}, ${total} total.`,
        steps: ['done', 'done', 'done', 'current'],
        endLabel: 'Call ended',
      };
    }
    case 'gone':
      return {
        headline: 'Call no longer listed',
        detail: 'It left the live list without an end time: it has most likely ended.',
        tone: 'text-muted',
        announcement: 'The call is no longer listed.',
        steps: ['done', 'done', progress.answered ? 'done' : 'skipped', 'current'],
        endLabel: 'No longer listed',
      };
  }
};

const TimesText = ({ times }: { times: Timing[] }) => (
  <span className="text-sm font-normal whitespace-nowrap">
    {times.map(({ value, label, labelFirst }, index) => {
      const number = <span className="tabular font-mono font-semibold">{value}</span>;
      return (
        <Fragment key={label}>
          {index > 0 ? ' · ' : null}
          {labelFirst ? label : number} {labelFirst ? number : label}
        </Fragment>
      );
    })}
  </span>
);

const markers: Record<StepState, { glyph: string; text: string; className: string }> = {
  done: { glyph: '✓', text: 'done', className: 'text-talking' },
  current: { glyph: '●', text: 'current step', className: 'text-ink font-semibold' },
  upcoming: { glyph: '○', text: 'not yet', className: 'text-muted' },
  skipped: { glyph: '–', text: 'skipped', className: 'text-muted line-through' },
};

const StepItem = ({ label, state }: { label: string; state: StepState }) => {
  const marker = markers[state];
  return (
    <li aria-current={state === 'current' ? 'step' : undefined} className={`flex items-baseline gap-2 ${marker.className}`}>
      <span aria-hidden="true" className="w-4 text-center">
        {marker.glyph}
      </span>
      <span className="sr-only">{marker.text}: </span>
      <span className="min-w-0 flex-1">{label}</span>
      {state === 'current' ? (
        <span className="rounded border border-line bg-panel px-1.5 text-xs font-medium text-ink">now</span>
      ) : null}
    </li>
  );
};

export const CallProgressView = ({ placed, calls }: { placed: PlacedCall; calls: readonly CallRecord[] }) => {
  const progress = useCallProgress(placed, calls);
  const number = formatPhoneNumber(placed.digits);
  const view = viewOf(progress, placed, number);
  const announce = useAnnounce();
  useEffect(() => announce(view.announcement), [announce, view.announcement]);

  const headingId = useId();
  const headlineId = useId();

  const labels = [
    `Accepted by ${placed.providerName}`,
    `Ringing ${placed.callerName}, then ${number}`,
    'Connected',
    view.endLabel,
  ];
  return (
    <section
      aria-labelledby={headingId}
      aria-describedby={headlineId}
      className="flex flex-col gap-3 rounded-md border border-line bg-raised p-3"
    >
      <h3 id={headingId} className="text-xs font-semibold tracking-wide text-muted uppercase">
        Call to {number}
      </h3>
      <div>
        <p id={headlineId} className={`flex items-baseline justify-between gap-3 text-base font-semibold ${view.tone}`}>
          <span>{view.headline}</span>{' '}
          {view.times ? <TimesText times={view.times} /> : null}
        </p>
        {view.detail ? <p className="mt-1 text-sm text-ink">{view.detail}</p> : null}
      </div>
      <ol aria-label="Progress" className="flex flex-col gap-1 text-sm">
        {labels.map((label, index) => (
          <StepItem key={index} label={label} state={view.steps[index] ?? 'upcoming'} />
        ))}
      </ol>
    </section>
  );
};
