/** Service level's numbers as tables: per bucket (the chart's values), and per subscriber. */
import type { ServiceLevelBucket, SubscriberServiceLevel } from '../../../../contract/service-levels.js';
import { formatDateTime, formatSeconds, formatShare } from '../../../lib/format.js';
import { bucketSize, NumbersDisclosure, ScrollingFiguresTable } from '../../../components/ui/figures-table.js';
import { subscriberName } from './subscriber-table.js';

export const percent = formatShare;
export const seconds = formatSeconds;

export const ServiceLevelBucketsTable = ({
  buckets,
  bucketSeconds,
  timeZone,
}: {
  buckets: readonly ServiceLevelBucket[];
  bucketSeconds: number;
  timeZone: string;
}) => (
  <NumbersDisclosure
    caption={`Inbound calls per ${bucketSize(bucketSeconds)} bucket of their start, oldest first, times in ${timeZone}`}
    columns={['Bucket start', 'Offered', 'Answered', 'In time', 'Abandoned', 'Service level', 'Abandon rate', 'Average answer']}
    rows={() =>
      buckets.map((b) => ({
        key: b.start,
        header: formatDateTime(b.start, timeZone),
        cells: [
          b.offered,
          b.answered,
          b.answeredWithin,
          b.abandoned,
          percent(b.serviceLevel),
          percent(b.abandonRate),
          seconds(b.averageAnswerSeconds),
        ],
      }))
    }
  />
);

export const SubscriberServiceLevelTable = ({ subscribers }: { subscribers: readonly SubscriberServiceLevel[] }) => (
  <ScrollingFiguresTable
    caption="Service level per subscriber in the range, most offered calls first"
    columns={['Subscriber', 'Extension', 'Offered', 'Answered', 'Service level', 'Average answer', 'Average talk', 'Outbound']}
    textColumns={2}
    empty="No call rang or reached a subscriber in this range."
    rows={subscribers.map((s) => ({
      key: s.subscriberID,
      header: subscriberName(s),
      cells: [
        s.extension ?? '',
        s.offered,
        s.answered,
        percent(s.serviceLevel),
        seconds(s.averageAnswerSeconds),
        seconds(s.averageTalkSeconds),
        s.outboundPlaced,
      ],
    }))}
  />
);
