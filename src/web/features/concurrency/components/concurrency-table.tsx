/** The chart as a table: the busiest moment of each minute in the range, for screen readers and exact numbers. */
import { sampleTotal, type ConcurrencySample } from '../../../lib/concurrency-samples.js';
import { formatShortTime } from '../../../lib/format.js';
import { busiestPerMinute } from '../utils/chart-series.js';

export const ConcurrencyTable = ({
  id,
  samples,
  rangeMinutes,
  timeZone,
}: {
  id: string;
  samples: readonly ConcurrencySample[];
  rangeMinutes: number;
  timeZone: string;
}) => {
  const rows = busiestPerMinute(samples);
  return (
    <div id={id} className="max-h-72 overflow-auto rounded-md border border-line">
      <table className="w-full text-sm tabular">
        <caption className="px-3 py-2 text-left text-muted">
          Busiest moment of each minute, last {rangeMinutes} minutes, newest first
        </caption>
        <thead className="sticky top-0 bg-raised">
          <tr>
            <th scope="col" className="px-3 py-1 text-left font-medium">
              Minute
            </th>
            <th scope="col" className="px-3 py-1 text-right font-medium">
              Live calls
            </th>
            <th scope="col" className="px-3 py-1 text-right font-medium">
              Inbound
            </th>
            <th scope="col" className="px-3 py-1 text-right font-medium">
              Outbound
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 ? (
            <tr>
              <td colSpan={4} className="px-3 py-2 text-muted">
                No samples in this range yet.
              </td>
            </tr>
          ) : (
            rows.map(({ minute, busiest }) => (
              <tr key={minute} className="border-t border-line">
                <th scope="row" className="px-3 py-1 text-left font-normal">
                  {formatShortTime(minute, timeZone)}
                </th>
                <td className="px-3 py-1 text-right">{sampleTotal(busiest)}</td>
                <td className="px-3 py-1 text-right">{busiest.inbound}</td>
                <td className="px-3 py-1 text-right">{busiest.outbound}</td>
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
};
