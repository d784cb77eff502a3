import { z } from 'zod';
import type { SessionHeader } from './entries';

/**
 * The first line of a session file, checked. Declared here, beside the type, because two tiers read it: the session
 * restoring its file, and the coordinator deciding whose a session file is before it registers it.
 */
export const sessionHeaderSchema: z.ZodType<SessionHeader> = z.object({
  type: z.literal('session'),
  version: z.literal(1),
  sessionId: z.string().min(1),
  cwd: z.string(),
  createdAt: z.string(),
  forkedFrom: z.object({ sessionId: z.string().min(1), entryId: z.string().min(1).nullable() }).optional(),
});
