import { z } from 'zod';

const segment = z.number().int().min(0);
const entry = z.object({
  kind: z.enum(['user', 'assistant']),
  id: z.string().min(1).max(8),
  parts: z.array(z.object({ type: z.literal('text'), text: z.string() })).max(3),
  note: z.string().nullish(),
  meta: z.unknown(),
});

/** A contract shaped like the wire's: a discriminated union of objects with bounded fields, nested entries. */
export const wireEvents = z.discriminatedUnion('type', [
  z.object({ type: z.literal('delta'), operationId: z.string(), segment, offset: segment, text: z.string() }),
  z.object({ type: z.literal('final'), operationId: z.string(), segment, entry }),
  z.object({ type: z.literal('settled'), outcome: z.enum(['completed', 'failed']), error: z.string().nullable() }),
  z.object({ type: z.literal('appended'), index: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER), entry }),
]);
