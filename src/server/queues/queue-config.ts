/**
 * A provider's `queues` in the config: each queue's ID, name, the numbers and the phone system's
 * own queues that bring calls to it, its members and its own service-level parameters. A number or
 * a provider queue belongs to one queue: one listed by two is refused at start, naming both.
 */
import { z } from 'zod';
import { QUEUE_ID_PATTERN, QUEUE_ID_RULE, queueParameterDefaults } from '../../contract/queues.js';
import { ID_PATTERN, ID_RULE } from '../settings/field-rules.js';

/**
 * How a dialed number is compared: a number (digits, with or without a leading "+") by its digits,
 * so "+18005550100" in the config matches "18005550100" as a phone system tells it; an extension
 * with other characters exactly as written.
 */
export const numberKey = (number: string): string => (/^\+?[0-9]+$/.test(number) ? number.replace(/^\+/, '') : number);

const numberSchema = z
  .string()
  .regex(/^\+?[0-9A-Za-z*#._-]{1,32}$/, 'must be a number in E.164 (such as +18005550100) or an extension (1 to 32 digits, letters, "*", "#", ".", "_" or "-")');

export const queueConfigSchema = z.strictObject({
  id: z.string().regex(QUEUE_ID_PATTERN, `must be ${QUEUE_ID_RULE}`),
  name: z.string().min(1, 'must not be empty'),
  /** Dialed numbers whose calls this queue takes (when the phone system names no queue of its own). */
  numbers: z.array(numberSchema).default([]),
  /** The phone system's own queues (Asterisk's `Queue()`, Twilio's queue name, Kamailio's dialog variable `queue`) that are this queue. */
  providerQueues: z.array(z.string().min(1, 'must not be empty').max(128)).default([]),
  /** The provider's subscriber IDs who answer this queue: its agents' figures. */
  members: z.array(z.string().regex(ID_PATTERN, `must be a subscriber ID: ${ID_RULE}`)).default([]),
  answerWithinSeconds: z.number().int().min(1).max(600).default(queueParameterDefaults.answerWithinSeconds),
  shortAbandonSeconds: z.number().int().min(0).max(60).default(queueParameterDefaults.shortAbandonSeconds),
  serviceLevelTarget: z.number().min(0.01).max(1).default(queueParameterDefaults.serviceLevelTarget),
});
export type QueueConfig = z.output<typeof queueConfigSchema>;

/** A provider's queues: IDs unique, and each number, provider queue and member listed once per queue, each number and provider queue by one queue only. */
export const queuesConfigSchema = z
  .array(queueConfigSchema)
  .max(500, 'has more than 500 queues')
  .default([])
  .superRefine((queues, ctx) => {
    const ids = new Map<string, number>();
    queues.forEach((queue, i) => {
      if (ids.has(queue.id)) ctx.addIssue({ code: 'custom', path: [i, 'id'], message: `duplicate queue id "${queue.id}"` });
      else ids.set(queue.id, i);
    });
    const claim = (key: 'numbers' | 'providerQueues', what: string, keyOf: (value: string) => string) => {
      const owner = new Map<string, { queue: string; value: string }>();
      queues.forEach((queue, i) =>
        queue[key].forEach((value, j) => {
          const held = owner.get(keyOf(value));
          if (held === undefined) owner.set(keyOf(value), { queue: queue.id, value });
          else if (held.queue === queue.id)
            ctx.addIssue({ code: 'custom', path: [i, key, j], message: `${what} "${value}" is listed twice in queue "${queue.id}"` });
          else
            ctx.addIssue({
              code: 'custom',
              path: [i, key, j],
              message: `${what} "${value}" is listed by queue "${held.queue}" and by queue "${queue.id}": a call can be offered to one queue only`,
            });
        }),
      );
    };
    claim('numbers', 'number', numberKey);
    claim('providerQueues', 'provider queue', (value) => value);
    queues.forEach((queue, i) => {
      const seen = new Set<string>();
      queue.members.forEach((member, j) => {
        if (seen.has(member)) ctx.addIssue({ code: 'custom', path: [i, 'members', j], message: `member "${member}" is listed twice` });
        seen.add(member);
      });
    });
  });

/** A queue's service-level parameters in ms, as the journal's queries take them. */
export const queueParametersMs = (queue: QueueConfig) => ({
  queueID: queue.id,
  answerWithinMs: queue.answerWithinSeconds * 1000,
  shortAbandonMs: queue.shortAbandonSeconds * 1000,
});

/** The parameters the calls in no queue (and those of a queue no longer configured) are counted with, in ms. */
export const UNQUEUED_PARAMETERS_MS = {
  answerWithinMs: queueParameterDefaults.answerWithinSeconds * 1000,
  shortAbandonMs: queueParameterDefaults.shortAbandonSeconds * 1000,
} as const;

/** A queue as configured now, as its parameter history records it. */
export const queueParametersInForce = (queue: QueueConfig) => ({
  ...queueParametersMs(queue),
  name: queue.name,
  serviceLevelTarget: queue.serviceLevelTarget,
  members: [...queue.members],
});
