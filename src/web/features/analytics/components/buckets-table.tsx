/** The charts as a table: every bucket with its numbers, for screen readers and exact values. */
import type { ConcurrencyBucket } from '../../../../contract/analytics.js';
import { formatDateTime } from '../../../lib/format.js';
import { bucketSize, NumbersDisclosure } from '../../../components/ui/figures-table.js';

export const BucketsTable = ({
  buckets,
  bucketSeconds,
  timeZone,
}: {
  buckets: readonly ConcurrencyBucket[];
  bucketSeconds: number;
  timeZone: string;
}) => (
  <NumbersDisclosure
    caption={`Calls per ${bucketSize(bucketSeconds)} bucket, oldest first, times in ${timeZone}`}
    columns={['Bucket start', 'Peak', 'Average', 'Peak inbound', 'Peak outbound', 'Started', 'Missed']}
    rows={() =>
      buckets.map((b) => ({
        key: b.start,
        header: formatDateTime(b.start, timeZone),
        cells: [b.peak, b.average, b.peakInbound, b.peakOutbound, b.started, b.missed],
      }))
    }
  />
);
