/** `GET /v1/me`: what a token may see, so a client can offer choices instead of asking for IDs. */
import { z } from 'zod';
import { personSchema, roleSchema } from './session.js';

/** `calls:export`: the whole history out; a token's `calls:read` includes it, a person needs the analyst's or admin's role. */
export const permissionSchema = z.enum(['calls:read', 'calls:write', 'calls:control', 'calls:export']);
export type Permission = z.infer<typeof permissionSchema>;

export const meResponseSchema = z.object({
  account: z.object({ id: z.string(), name: z.string() }),
  applications: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      providers: z.array(
        z.object({
          id: z.string(),
          name: z.string(),
          type: z.string(),
          canEndCalls: z
            .boolean()
            .meta({ description: 'Whether this provider can end a live call (DELETE on the call); a token also needs `calls:control` to do it.' }),
          canListen: z
            .boolean()
            .meta({ description: 'Whether a supervisor can listen silently to a live call of this provider (POST on the call\'s `listen`); it also needs `calls:control`.' }),
          softphone: z
            .boolean()
            .meta({ description: "Whether a subscriber's browser can be their phone at this provider (POST `softphone/credentials`)." }),
        }),
      ),
    }),
  ),
  permissions: z.array(permissionSchema),
  subscriberIDs: z
    .array(z.string())
    .min(1)
    .optional()
    .meta({
      description:
        "Present on an agent's token only: the subscribers it places calls as; making a call as any other " +
        '`providerSubscriberID` is refused with 403 `subscriber_not_allowed`. Absent: the token may place calls as any subscriber.',
    }),
  person: personSchema.optional().meta({ description: 'Present for a person signed in with the identity provider (a session), absent for an API token.' }),
  roles: z.array(roleSchema).optional().meta({ description: "A signed-in person's roles." }),
  queueIDs: z
    .array(z.string())
    .optional()
    .meta({
      description:
        "Present when only some queues' calls are visible (a supervisor's or analyst's queues): lists, figures, the stream and exports " +
        'hold those queues and, for an agent, their own calls. Absent: every call of the visible providers.',
    }),
}).meta({ id: 'MeResponse' });
export type MeResponse = z.infer<typeof meResponseSchema>;
