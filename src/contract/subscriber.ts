/** The click-to-call picker's subscriber list (our extension of the spec). */
import { z } from 'zod';

export const subscriberSchema = z.object({
  providerSubscriberID: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  extension: z.string(),
  number: z.string(),
  registered: z.boolean(),
  active: z.boolean(),
});
export type Subscriber = z.infer<typeof subscriberSchema>;

export const listSubscribersResponseSchema = z.object({ subscribers: z.array(subscriberSchema) }).meta({ id: 'ListSubscribersResponse' });
export type ListSubscribersResponse = z.infer<typeof listSubscribersResponseSchema>;
