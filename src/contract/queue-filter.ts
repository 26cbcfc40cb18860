/** How a request names queues: a queue's ID, and `queueID=` on lists and analytics. */
import { z } from 'zod';

/** A queue's ID: what `?queueID=` and the dashboard's `?queue=` name. */
export const QUEUE_ID_PATTERN = /^[a-z0-9-]{1,64}$/;
export const QUEUE_ID_RULE = '1 to 64 lowercase letters, digits or "-"';
/** `queueID=none`: the calls in no queue. */
export const NO_QUEUE = 'none';

/**
 * `queueID=` of a list or an analytics query: one queue, several comma-separated, or `none` (the
 * calls in no queue), each at most once.
 */
export const queueFilterSchema = z
  .string()
  .refine(
    (text) => text.split(',').every((id) => id === NO_QUEUE || QUEUE_ID_PATTERN.test(id)),
    `must be a queue ID (${QUEUE_ID_RULE}), several comma-separated, or "${NO_QUEUE}" for the calls in no queue`,
  )
  .refine((text) => new Set(text.split(',')).size === text.split(',').length, 'names a queue twice');

