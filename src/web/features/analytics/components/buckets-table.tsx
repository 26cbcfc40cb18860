/** The charts as a table: every bucket with its numbers, for screen readers and exact values. */
import type { ConcurrencyBucket } from '../../../../contract/analytics.js';
import { formatDateTime } from '../../../lib/format.js';

export const BucketsTable = ({ buckets, bucketSeconds, timeZone }: { buckets: readonly ConcurrencyBucket[]; bucketSeconds: number; timeZone: string }) => (
  <details className="rounded-md border border-line">
    <summary className="cursor-pointer px-3 py-2 text-sm">Show the numbers as a table</summary>
    <div className="max-h-80 overflow-auto">
      <table className="w-full text-sm tabular">
        <caption className="px-3 py-2 text-left text-muted">
          Calls per {bucketSeconds >= 3600 ? `${bucketSeconds / 3600} h` : `${bucketSeconds / 60} min`} bucket, oldest first, times in {timeZone}
        </caption>
        <thead className="sticky top-0 bg-raised">
          <tr>
            {['Bucket start', 'Peak', 'Average', 'Peak inbound', 'Peak outbound', 'Started', 'Missed'].map((title, i) => (
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
              {[b.peak, b.average, b.peakInbound, b.peakOutbound, b.started, b.missed].map((value, i) => (
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
