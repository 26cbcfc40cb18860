/** CSV of what the analytics page shows: the concurrency buckets, the calls per subscriber, and service level's buckets and subscribers. */
import type { ConcurrencyBucket, SubscriberActivity } from '../../../../contract/analytics.js';
import type { QueueServiceLevel, ServiceLevelBucket, ServiceLevelFigures, SubscriberServiceLevel } from '../../../../contract/service-levels.js';
import { csvText } from '../../../../contract/csv.js';
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

/** Every figure of the service-levels answer, under its API name; empty where it is null. */
const FIGURE_COLUMNS = [
  'offered',
  'answered',
  'answeredWithin',
  'shortAbandoned',
  'abandoned',
  'waiting',
  'serviceLevel',
  'abandonRate',
  'averageAnswerSeconds',
  'longestAnswerSeconds',
  'averageTalkSeconds',
  'outboundPlaced',
  'outboundConnected',
  'averageOutboundTalkSeconds',
] as const satisfies readonly (keyof ServiceLevelFigures)[];

const figureCells = (f: ServiceLevelFigures) => FIGURE_COLUMNS.map((column) => (f[column] === null ? '' : String(f[column])));

export const serviceLevelBucketsToCsv = (buckets: readonly ServiceLevelBucket[], zone: string): string =>
  csvText([
    ['start', `start (${zone})`, ...FIGURE_COLUMNS],
    ...buckets.map((b) => [b.start, toZonedInput(Date.parse(b.start), zone).replace('T', ' '), ...figureCells(b)]),
  ]);

export const serviceLevelSubscribersToCsv = (subscribers: readonly SubscriberServiceLevel[]): string =>
  csvText([
    ['subscriberID', 'firstName', 'lastName', 'extension', ...FIGURE_COLUMNS],
    ...subscribers.map((s) => [s.subscriberID, s.firstName ?? '', s.lastName ?? '', s.extension ?? '', ...figureCells(s)]),
  ]);

/** Each queue's figures over the range, one line a queue, with its own parameters and target. */
export const queueServiceLevelsToCsv = (queues: readonly QueueServiceLevel[]): string =>
  csvText([
    ['queueID', 'name', 'answerWithinSeconds', 'shortAbandonSeconds', 'serviceLevelTarget', ...FIGURE_COLUMNS],
    ...queues.map((q) => [q.queueID ?? '', q.name, String(q.answerWithinSeconds), String(q.shortAbandonSeconds), q.serviceLevelTarget === null ? '' : String(q.serviceLevelTarget), ...figureCells(q.totals)]),
  ]);

/** Each queue's buckets, one line a queue and bucket. */
export const queueServiceLevelBucketsToCsv = (queues: readonly QueueServiceLevel[], zone: string): string =>
  csvText([
    ['queueID', 'name', 'start', `start (${zone})`, ...FIGURE_COLUMNS],
    ...queues.flatMap((q) => q.buckets.map((b) => [q.queueID ?? '', q.name, b.start, toZonedInput(Date.parse(b.start), zone).replace('T', ' '), ...figureCells(b)])),
  ]);
