/** `GET /v1/me`: what a token may see, so a client can offer choices instead of asking for IDs. */
import { z } from 'zod';

export const permissionSchema = z.enum(['calls:read', 'calls:write']);
export type Permission = z.infer<typeof permissionSchema>;

export const meResponseSchema = z.object({
  account: z.object({ id: z.string(), name: z.string() }),
  applications: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      providers: z.array(z.object({ id: z.string(), name: z.string(), type: z.string() })),
    }),
  ),
  permissions: z.array(permissionSchema),
});
export type MeResponse = z.infer<typeof meResponseSchema>;
