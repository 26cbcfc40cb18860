/** Calls per subscriber over the range, busiest first. */
import { useRef } from 'react';
import type { SubscriberActivity } from '../../../../contract/analytics.js';
import { formatDuration } from '../../../lib/format.js';
import { useHorizontalOverflow } from '../../../lib/use-horizontal-overflow.js';

const name = (s: SubscriberActivity) => [s.firstName, s.lastName].filter(Boolean).join(' ') || s.subscriberID;

export const SubscriberTable = ({ subscribers }: { subscribers: readonly SubscriberActivity[] }) => {
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
          <caption className="sr-only">Calls per subscriber in the range, most calls first</caption>
          <thead className="sticky top-0 bg-raised">
            <tr>
              {['Subscriber', 'Extension', 'Calls', 'Inbound', 'Outbound', 'Missed', 'Talk time'].map((title, i) => (
                <th key={title} scope="col" className={`px-3 py-1 font-medium ${i < 2 ? 'text-left' : 'text-right'}`}>
                  {title}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {subscribers.length === 0 ? (
              <tr>
                <td colSpan={7} className="px-3 py-2 text-muted">
                  No calls reached a subscriber in this range.
                </td>
              </tr>
            ) : (
              subscribers.map((s) => (
                <tr key={s.subscriberID} className="border-t border-line">
                  <th scope="row" className="px-3 py-1 text-left font-normal">
                    {name(s)}
                  </th>
                  <td className="px-3 py-1">{s.extension ?? ''}</td>
                  <td className="px-3 py-1 text-right">{s.calls}</td>
                  <td className="px-3 py-1 text-right">{s.inbound}</td>
                  <td className="px-3 py-1 text-right">{s.outbound}</td>
                  <td className="px-3 py-1 text-right">{s.missed}</td>
                  <td className="px-3 py-1 text-right">{formatDuration(s.talkSeconds * 1000)}</td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
    </div>
  );
};
