/** Service level's numbers as tables: per bucket (the chart's values), and per subscriber. */
import { useRef } from 'react';
import type { ServiceLevelBucket, ServiceLevelFigures, SubscriberServiceLevel } from '../../../../contract/service-levels.js';
import { formatDateTime, formatDuration } from '../../../lib/format.js';
import { useHorizontalOverflow } from '../../../lib/use-horizontal-overflow.js';

export const percent = (share: number | null) => (share === null ? '—' : `${Math.round(share * 1000) / 10} %`);
export const seconds = (value: number | null) => (value === null ? '—' : formatDuration(value * 1000));

export const ServiceLevelBucketsTable = ({ buckets, bucketSeconds, timeZone }: { buckets: readonly ServiceLevelBucket[]; bucketSeconds: number; timeZone: string }) => (
  <details className="rounded-md border border-line">
    <summary className="cursor-pointer px-3 py-2 text-sm">Show the numbers as a table</summary>
    <div className="max-h-80 overflow-auto">
      <table className="w-full text-sm tabular">
        <caption className="px-3 py-2 text-left text-muted">
          Inbound calls per {bucketSeconds >= 3600 ? `${bucketSeconds / 3600} h` : `${bucketSeconds / 60} min`} bucket of their start, oldest first, times in {timeZone}
        </caption>
        <thead className="sticky top-0 bg-raised">
          <tr>
            {['Bucket start', 'Offered', 'Answered', 'In time', 'Abandoned', 'Service level', 'Abandon rate', 'Average answer'].map((title, i) => (
              <th key={title} scope="col" className={`px-3 py-1 font-medium ${i === 0 ? 'text-left' : 'text-right'}`}>
                {title}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {buckets.map((b) => (
            <tr key={b.start} className="border-t border-line">
              <th scope="row" className="px-3 py-1 text-left font-normal">
                {formatDateTime(b.start, timeZone)}
              </th>
              {[b.offered, b.answered, b.answeredWithin, b.abandoned, percent(b.serviceLevel), percent(b.abandonRate), seconds(b.averageAnswerSeconds)].map((value, i) => (
                <td key={i} className="px-3 py-1 text-right">
                  {value}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  </details>
);

const name = (s: SubscriberServiceLevel) => [s.firstName, s.lastName].filter(Boolean).join(' ') || s.subscriberID;

const cells = (f: ServiceLevelFigures) => [f.offered, f.answered, percent(f.serviceLevel), seconds(f.averageAnswerSeconds), seconds(f.averageTalkSeconds), f.outboundPlaced];

export const SubscriberServiceLevelTable = ({ subscribers }: { subscribers: readonly SubscriberServiceLevel[] }) => {
  const scroller = useRef<HTMLDivElement>(null);
  const scrolls = useHorizontalOverflow(scroller);
  return (
    <div className="flex flex-col gap-1">
      {scrolls ? (
        <p className="text-sm font-medium text-muted">
          Scroll sideways for all columns <span aria-hidden="true">→</span>
        </p>
      ) : null}
      <div ref={scroller} className="max-h-96 overflow-auto rounded-md border border-line">
        <table className="w-full text-sm tabular">
          <caption className="sr-only">Service level per subscriber in the range, most offered calls first</caption>
          <thead className="sticky top-0 bg-raised">
            <tr>
              {['Subscriber', 'Extension', 'Offered', 'Answered', 'Service level', 'Average answer', 'Average talk', 'Outbound'].map((title, i) => (
                <th key={title} scope="col" className={`px-3 py-1 font-medium ${i < 2 ? 'text-left' : 'text-right'}`}>
                  {title}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {subscribers.length === 0 ? (
              <tr>
                <td colSpan={8} className="px-3 py-2 text-muted">
                  No call rang or reached a subscriber in this range.
                </td>
              </tr>
            ) : (
              subscribers.map((s) => (
                <tr key={s.subscriberID} className="border-t border-line">
                  <th scope="row" className="px-3 py-1 text-left font-normal">
                    {name(s)}
                  </th>
                  <td className="px-3 py-1">{s.extension ?? ''}</td>
                  {cells(s).map((value, i) => (
                    <td key={i} className="px-3 py-1 text-right">
                      {value}
                    </td>
                  ))}
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
    </div>
  );
};
