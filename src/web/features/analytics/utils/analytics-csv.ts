/** CSV of what the analytics page shows: the concurrency buckets and the calls per subscriber. */
import type { ConcurrencyBucket, SubscriberActivity } from '../../../../contract/analytics.js';
import { csvText } from '../../../lib/csv.js';
import { toZonedInput } from '../../../lib/zoned-time.js';

export const bucketsToCsv = (buckets: readonly ConcurrencyBucket[], zone: string): string =>
  csvText([
    ['start', `start (${zone})`, 'peak', 'average', 'peakInbound', 'peakOutbound', 'started', 'missed'],
    ...buckets.map((b) => [
      b.start,
      toZonedInput(Date.parse(b.start), zone).replace('T', ' '),
      String(b.peak),
      String(b.average),
      String(b.peakInbound),
      String(b.peakOutbound),
      String(b.started),
      String(b.missed),
    ]),
  ]);

export const subscribersToCsv = (subscribers: readonly SubscriberActivity[]): string =>
  csvText([
    ['subscriberID', 'firstName', 'lastName', 'extension', 'calls', 'inbound', 'outbound', 'missed', 'talkSeconds'],
    ...subscribers.map((s) => [
      s.subscriberID,
      s.firstName ?? '',
      s.lastName ?? '',
      s.extension ?? '',
      String(s.calls),
      String(s.inbound),
      String(s.outbound),
      String(s.missed),
      String(s.talkSeconds),
    ]),
  ]);
