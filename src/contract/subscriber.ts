/** The click-to-call picker's subscriber list (our extension of the spec). */
import { z } from 'zod';

export const subscriberSchema = z.object({
  providerSubscriberID: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  extension: z.string(),
  number: z.string(),
  registered: z.boolean().nullable().meta({
    description:
      "Whether the subscriber's phone is registered with the provider; null when the provider cannot tell (Twilio: its Voice API has no presence for devices, so a call is the only test).",
  }),
  active: z.boolean(),
});
export type Subscriber = z.infer<typeof subscriberSchema>;

export const listSubscribersResponseSchema = z.object({ subscribers: z.array(subscriberSchema) }).meta({ id: 'ListSubscribersResponse' });
export type ListSubscribersResponse = z.infer<typeof listSubscribersResponseSchema>;
