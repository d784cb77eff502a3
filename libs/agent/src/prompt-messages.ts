import { err, ok, type Result } from 'neverthrow';
import { z } from 'zod';
import { userMessageSchema } from './message-schema';
import type { UserMessage } from '@pi/agent-contract';

/**
 * Checks what a prompt carries: at least one message, each a strict-JSON user message with some
 * non-blank text. Returns fresh copies, so a caller changing its objects later cannot change the record.
 */
export function checkPromptMessages(
  messages: readonly unknown[],
): Result<UserMessage[], { code: 'invalid_message'; message: string }> {
  if (!Array.isArray(messages) || messages.length === 0) {
    return err({ code: 'invalid_message', message: 'A prompt needs at least one user message' });
  }
  const checked: UserMessage[] = [];
  for (const [index, candidate] of messages.entries()) {
    const parsed = userMessageSchema.safeParse(candidate);
    if (!parsed.success) {
      return err({
        code: 'invalid_message',
        message: `Message ${index} is not a user message:\n${z.prettifyError(parsed.error)}`,
      });
    }
    if (!parsed.data.content.some((part) => part.text.trim() !== '')) {
      return err({ code: 'invalid_message', message: `Message ${index} has no text` });
    }
    checked.push(structuredClone(parsed.data));
  }
  return ok(checked);
}
