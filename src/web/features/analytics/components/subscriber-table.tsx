/** Calls per subscriber over the range, busiest first. */
import type { SubscriberActivity } from '../../../../contract/analytics.js';
import { formatDuration } from '../../../lib/format.js';
import { ScrollingFiguresTable } from '../../../components/ui/figures-table.js';

/** A subscriber as people know them: their name, or their ID when they have none. */
export const subscriberName = (s: { subscriberID: string; firstName?: string; lastName?: string }) =>
  [s.firstName, s.lastName].filter(Boolean).join(' ') || s.subscriberID;

export const SubscriberTable = ({ subscribers }: { subscribers: readonly SubscriberActivity[] }) => (
  <ScrollingFiguresTable
    caption="Calls per subscriber in the range, most calls first"
    columns={['Subscriber', 'Extension', 'Calls', 'Inbound', 'Outbound', 'Missed', 'Talk time']}
    textColumns={2}
    empty="No calls reached a subscriber in this range."
    rows={subscribers.map((s) => ({
      key: s.subscriberID,
      header: subscriberName(s),
      cells: [s.extension ?? '', s.calls, s.inbound, s.outbound, s.missed, formatDuration(s.talkSeconds * 1000)],
    }))}
  />
);
