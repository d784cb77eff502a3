import { z } from 'zod';
import { thinkingLevelSchema, type SessionEntry } from '@pi/agent-contract';
import { agentMessageSchema, userMessageSchema } from './message-schema';

/** Runtime shapes of the session file's lines, checked when a session is restored. */
export { sessionHeaderSchema } from '@pi/agent-contract';

const base = {
  id: z.string().min(1),
  parentId: z.string().min(1).nullable(),
  timestamp: z.string(),
};

export const sessionEntrySchema: z.ZodType<SessionEntry> = z.discriminatedUnion('kind', [
  z.object({
    ...base,
    kind: z.literal('message'),
    message: agentMessageSchema,
    operationId: z.string().nullable(),
    queueItemId: z.string().min(1).optional(),
    origin: z.object({ namespace: z.string().min(1), data: z.json() }).optional(),
  }),
  z.object({
    ...base,
    kind: z.literal('operation_started'),
    operationId: z.string(),
    clientOperationId: z.string().optional(),
    model: z.object({ provider: z.string().min(1), modelId: z.string().min(1) }).optional(),
    thinkingLevel: thinkingLevelSchema.optional(),
  }),
  z.object({ ...base, kind: z.literal('cancel_requested'), operationId: z.string() }),
  z.object({
    ...base,
    kind: z.literal('operation_settled'),
    operationId: z.string(),
    outcome: z.enum(['completed', 'aborted', 'failed']),
    error: z.string().nullable(),
  }),
  z.object({
    ...base,
    kind: z.literal('queue_added'),
    itemId: z.string().min(1),
    queueKind: z.enum(['steer', 'follow-up']),
    message: userMessageSchema,
    operationId: z.string().nullable(),
    clientOperationId: z.string().optional(),
    queuedAt: z.string().optional(),
  }),
  z.object({
    ...base,
    kind: z.literal('queue_withdrawn'),
    itemId: z.string().min(1),
    reason: z.enum(['withdrawn', 'aborted']),
    operationId: z.string().nullable(),
  }),
  z.object({ ...base, kind: z.literal('custom'), namespace: z.string(), data: z.json() }),
  z.object({ ...base, kind: z.literal('leaf_moved'), from: z.string().min(1).nullable() }),
  z.object({
    ...base,
    kind: z.literal('compaction'),
    firstKeptEntryId: z.string().min(1).nullable(),
    summary: z.string(),
    instructions: z.string().nullable(),
    trigger: z.enum(['auto', 'manual']),
    model: z.string(),
    tokensBefore: z.number().int().min(0),
    tokensAfter: z.number().int().min(0),
    operationId: z.string().nullable(),
  }),
]);
