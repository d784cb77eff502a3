import type { Context } from '@pi/context';
import { z } from 'zod';
import type {
  AfterToolHook,
  ToolCallInfo,
  ToolCallResult,
  ToolResultMessage,
  ToolResultRewrite,
} from '@pi/agent-contract';
import { frozenCopy } from './frozen-copy';
import type { HookCaller } from './hook-caller';
import { textPartSchema } from './message-schema';
import type { OwnedHook } from './ordered-hooks';

/** A rewrite names only what a result has; an unknown key is a mistake worth reporting, not something to drop. */
const rewriteSchema = z.strictObject({
  content: z.array(textPartSchema).optional(),
  details: z.json().optional(),
  isError: z.boolean().optional(),
});

/**
 * Runs the `after_tool` hooks in order over one call's result, each seeing the result as the earlier ones left
 * it. A hook that fails or returns a malformed rewrite is skipped (and reported); the result it was given goes on.
 */
export async function rewriteToolResult(
  hooks: readonly OwnedHook<AfterToolHook>[],
  caller: HookCaller,
  call: ToolCallInfo,
  result: ToolResultMessage,
  context: Context,
): Promise<ToolResultMessage> {
  if (hooks.length === 0) return result;
  // Hooks read frozen copies: one that mutates instead of returning a rewrite fails (and is reported).
  const frozenCall = frozenCopy(call);
  let current = result;
  for (const { hook, owner } of hooks) {
    const seen = resultOf(current);
    const rewrite = await caller.call(
      'after_tool',
      owner,
      (hookContext) => hook(frozenCall, seen, hookContext),
      checkRewrite,
      context,
    );
    if (rewrite !== undefined) current = { ...current, ...rewrite };
  }
  return current;
}

function resultOf(message: ToolResultMessage): ToolCallResult {
  return frozenCopy({ content: message.content, details: message.details, isError: message.isError });
}

function checkRewrite(value: unknown): { ok: ToolResultRewrite | undefined } | { malformed: string } {
  if (value === undefined) return { ok: undefined };
  const parsed = rewriteSchema.safeParse(value);
  if (!parsed.success) return { malformed: `a malformed rewrite:\n${z.prettifyError(parsed.error)}` };
  // Copied, so the hook cannot change the result after handing it over.
  const rewrite: ToolResultRewrite = {};
  if (parsed.data.content !== undefined) rewrite.content = structuredClone(parsed.data.content);
  if (parsed.data.details !== undefined) rewrite.details = structuredClone(parsed.data.details);
  if (parsed.data.isError !== undefined) rewrite.isError = parsed.data.isError;
  return { ok: rewrite };
}
