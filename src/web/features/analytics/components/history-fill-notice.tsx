/** Says, above the analytics, that the provider's past is still being filled in (or stopped short) and how far it got. */
import type { HistoryFill } from '../../../../contract/analytics.js';
import { Banner } from '../../../components/ui/banner.js';
import { formatDateTime } from '../../../lib/format.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export interface HistoryFillNoticeProps {
  /** From the concurrency answer; absent for a provider whose past was never backfilled. */
  fill: HistoryFill | undefined;
  /** The range on screen: only a fill that leaves part of it without history is worth a word. */
  window: { from: number; to: number };
  timeZone: string;
}

const oneDecimal = (n: number) => String(Math.round(n * 10) / 10);

const amount = (ms: number, unitMs: number, unit: string) => {
  const n = oneDecimal(ms / unitMs);
  return `${n} ${n === '1' ? unit : `${unit}s`}`;
};

/** "2.4 days of 7", "5 hours of 7 days" while under a day, or "5 hours of 24" when the whole past is under two days. */
const loadedOf = (loadedMs: number, totalMs: number) => {
  if (totalMs < 2 * DAY) return `${amount(loadedMs, HOUR, 'hour')} of ${oneDecimal(totalMs / HOUR)}`;
  if (loadedMs < DAY) return `${amount(loadedMs, HOUR, 'hour')} of ${oneDecimal(totalMs / DAY)} days`;
  return `${amount(loadedMs, DAY, 'day')} of ${oneDecimal(totalMs / DAY)}`;
};

export const HistoryFillNotice = ({ fill, window, timeZone }: HistoryFillNoticeProps) => {
  if (!fill || fill.status === 'complete') return null;
  const to = Date.parse(fill.to);
  const filledFrom = Date.parse(fill.filledFrom);
  if (window.from >= filledFrom) return null;
  const loaded = loadedOf(to - filledFrom, to - Date.parse(fill.from));
  const since = formatDateTime(fill.filledFrom, timeZone);
  switch (fill.status) {
    case 'filling':
      return (
        <Banner tone="info" title={`History is still filling: ${loaded} loaded`}>
          The service is writing this provider’s past, newest first; it is complete from {since} on. Earlier buckets show fewer
          calls than there were until it is done. This page updates by itself.
        </Banner>
      );
    case 'capped':
      return (
        <Banner tone="info" title={`History starts at ${since}: ${loaded} loaded`}>
          The service filled this provider’s past as far back as its budget of backfilled calls allows. Nothing was recorded
          before that.
        </Banner>
      );
    case 'failed':
      return (
        <Banner tone="warn" title={`History stopped filling: ${loaded} loaded`}>
          The service could not write the rest of this provider’s past; it carries on at its next start. Buckets before {since}{' '}
          show fewer calls than there were.
        </Banner>
      );
  }
};
