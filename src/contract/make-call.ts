/** The make-call request of spec section 2.3, with the digit rules of section 4.2. */
import { z } from 'zod';

/** Says "is required" for a missing field and `message` for a present one of the wrong type. */
const typeError = (message: string) => (issue: { input?: unknown }) => (issue.input === undefined ? 'is required' : message);

const digits = (min: number, max: number) =>
  z
    .string({ error: typeError('must be a string of digits (a JSON number is not accepted)') })
    .regex(new RegExp(`^[0-9]{${min},${max}}$`), `must be ${min} to ${max} digits (0-9) with no spaces, dashes or other characters`);

export const makeCallRequestSchema = z.strictObject(
  {
  providerSubscriberID: z.string({ error: typeError('must be a string') }).min(1, 'must not be empty').max(200, 'must be at most 200 characters'),
  remoteNumber: digits(3, 15),
  providerSubscriberExtension: digits(1, 10).optional(),
  providerSubscriberNumber: digits(3, 15).optional(),
  },
  { error: (issue) => (issue.code === 'invalid_type' ? 'the body must be a JSON object' : undefined) },
).meta({ id: 'MakeCallRequest' });
export type MakeCallRequest = z.infer<typeof makeCallRequestSchema>;

/** Header that makes a make-call retry safe: the same key within its lifetime never places a second call. */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
export const idempotencyKeySchema = z
  .string()
  .min(1)
  .max(255)
  .regex(/^[\x21-\x7e]+$/, 'must be 1 to 255 visible ASCII characters');
