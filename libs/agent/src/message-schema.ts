import { z } from 'zod';
import type { AgentMessage, JsonObject, UserMessage } from '@pi/agent-contract';

/**
 * Runtime shapes of the strict-JSON messages: what a restored line, a prompt, or a tool's result must be
 * before the harness stores it. `z.json()` rejects Maps, Dates, class instances, undefined and non-finite numbers.
 */
export const textPartSchema = z.object({ type: z.literal('text'), text: z.string() });

export const jsonObjectSchema: z.ZodType<JsonObject> = z.record(z.string(), z.json());

const toolCallPartSchema = z.object({
  type: z.literal('tool_call'),
  id: z.string().min(1),
  name: z.string(),
  arguments: jsonObjectSchema,
  signature: z.string().optional(),
});

const thinkingPartSchema = z.object({
  type: z.literal('thinking'),
  text: z.string(),
  signature: z.string().optional(),
  redacted: z.boolean().optional(),
});

const tokenCount = z.number().int().min(0);

export const usageSchema = z.object({
  input: tokenCount,
  output: tokenCount,
  cacheRead: tokenCount,
  cacheWrite: tokenCount,
  cost: z.number().min(0).optional(),
});

export const userMessageSchema: z.ZodType<UserMessage> = z.object({
  role: z.literal('user'),
  content: z.array(textPartSchema),
});

const assistantMessageSchema = z.object({
  role: z.literal('assistant'),
  content: z.array(z.discriminatedUnion('type', [textPartSchema, thinkingPartSchema, toolCallPartSchema])),
  model: z.string(),
  stopReason: z.enum(['stop', 'tool_calls', 'length', 'aborted', 'error']),
  usage: usageSchema.optional(),
});

const toolResultMessageSchema = z.object({
  role: z.literal('tool'),
  toolCallId: z.string(),
  toolName: z.string(),
  content: z.array(textPartSchema),
  details: z.json(),
  isError: z.boolean(),
});

export const agentMessageSchema: z.ZodType<AgentMessage> = z.discriminatedUnion('role', [
  z.object({ role: z.literal('user'), content: z.array(textPartSchema) }),
  assistantMessageSchema,
  toolResultMessageSchema,
]);

/** What a tool's `execute` must resolve with. */
export const toolResultSchema = z.object({
  content: z.array(textPartSchema),
  details: z.json(),
  isError: z.boolean().optional(),
});
