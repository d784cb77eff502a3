import type { Context } from '@pi/context';
import { z } from 'zod';
import type { BeforeModelRequestHook, ModelRequestInfo, ModelRequestRewrite } from '@pi/agent-contract';
import { frozenCopy } from './frozen-copy';
import type { HookCaller } from './hook-caller';
import { agentMessageSchema } from './message-schema';
import type { OwnedHook } from './ordered-hooks';

/** A rewrite names at least one part; replacement messages are a non-empty list: an empty request is never meant. */
const rewriteSchema = z
  .strictObject({ systemPrompt: z.string().optional(), messages: z.array(agentMessageSchema).min(1).optional() })
  .refine((rewrite) => rewrite.systemPrompt !== undefined || rewrite.messages !== undefined, {
    message: 'a rewrite names systemPrompt, messages or both',
  });

/** What one model request sends once the hooks ran. */
export type ModelRequestParts = Pick<ModelRequestInfo, 'systemPrompt' | 'messages'>;

/**
 * Runs the `before_model_request` hooks in order over one request's system prompt and messages, each seeing what
 * the earlier ones left. Only the request changes: the session's history is the tree's, and hooks read frozen
 * copies. A hook that fails or returns a malformed rewrite is skipped (and reported); what it was given goes on.
 */
export async function modelRequestParts(
  hooks: readonly OwnedHook<BeforeModelRequestHook>[],
  caller: HookCaller,
  request: ModelRequestInfo,
  context: Context,
): Promise<ModelRequestParts> {
  if (hooks.length === 0) return request;
  let current = frozenCopy(request);
  for (const { hook, owner } of hooks) {
    const seen = current;
    const rewrite = await caller.call(
      'before_model_request',
      owner,
      (hookContext) => hook(seen, hookContext),
      checkRewrite,
      context,
    );
    if (rewrite !== undefined) current = frozenCopy({ ...current, ...rewrite });
  }
  return current;
}

function checkRewrite(value: unknown): { ok: ModelRequestRewrite | undefined } | { malformed: string } {
  if (value === undefined) return { ok: undefined };
  const parsed = rewriteSchema.safeParse(value);
  if (!parsed.success) return { malformed: `malformed rewrite:\n${z.prettifyError(parsed.error)}` };
  const { systemPrompt, messages } = parsed.data;
  return {
    ok: { ...(systemPrompt === undefined ? {} : { systemPrompt }), ...(messages === undefined ? {} : { messages }) },
  };
}
