import type { Context } from '@pi/context';
import { z } from 'zod';
import type { AgentMessage, BeforeModelRequestHook, ModelRequestInfo } from '@pi/agent-contract';
import { frozenCopy } from './frozen-copy';
import type { HookCaller } from './hook-caller';
import { agentMessageSchema } from './message-schema';
import type { OwnedHook } from './ordered-hooks';

/** A replacement is a non-empty list of valid messages: an empty request is never what a hook meant. */
const replacementSchema = z.strictObject({ messages: z.array(agentMessageSchema).min(1) });

/**
 * Runs the `before_model_request` hooks in order over one request's messages, each seeing what the earlier ones
 * left. Only the request changes: the session's history is the tree's, and hooks read frozen copies. A hook that
 * fails or returns a malformed replacement is skipped (and reported); the messages it was given go on.
 */
export async function modelRequestMessages(
  hooks: readonly OwnedHook<BeforeModelRequestHook>[],
  caller: HookCaller,
  request: ModelRequestInfo,
  context: Context,
): Promise<readonly AgentMessage[]> {
  if (hooks.length === 0) return request.messages;
  let current = frozenCopy(request);
  for (const { hook, owner } of hooks) {
    const seen = current;
    const replaced = await caller.call(
      'before_model_request',
      owner,
      (hookContext) => hook(seen, hookContext),
      checkReplacement,
      context,
    );
    if (replaced !== undefined) current = frozenCopy({ ...current, messages: replaced });
  }
  return current.messages;
}

function checkReplacement(value: unknown): { ok: AgentMessage[] | undefined } | { malformed: string } {
  if (value === undefined) return { ok: undefined };
  const parsed = replacementSchema.safeParse(value);
  if (!parsed.success) return { malformed: `malformed messages:\n${z.prettifyError(parsed.error)}` };
  return { ok: parsed.data.messages };
}
