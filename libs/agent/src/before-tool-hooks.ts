import type { Context } from '@pi/context';
import { errorMessage } from './error-text';
import type { Hooks } from './harness-types';
import type { BeforeToolHook, ToolCallInfo } from '@pi/agent-contract';

/**
 * The `before_tool` hooks, run in registration order before each tool call. They fail closed: a hook
 * that throws (or returns something other than nothing or `{ block }`) blocks the call, because a
 * policy hook that crashed has not approved anything.
 */
export class BeforeToolHooks implements Pick<Hooks, 'beforeTool'> {
  readonly #slots = new Set<{ hook: BeforeToolHook }>();

  beforeTool(hook: BeforeToolHook): () => void {
    const slot = { hook };
    this.#slots.add(slot);
    return () => {
      this.#slots.delete(slot);
    };
  }

  /** The reason the call is blocked, or null when every hook let it through. */
  async blockReason(call: ToolCallInfo, context: Context): Promise<string | null> {
    for (const slot of [...this.#slots]) {
      let verdict: unknown;
      try {
        verdict = await slot.hook(call, context);
      } catch (error) {
        return `Tool call blocked: a before_tool hook failed (${errorMessage(error)}), and a failed check blocks the call`;
      }
      if (verdict === undefined) continue;
      if (isBlock(verdict)) return `Tool call blocked by a before_tool hook: ${verdict.block}`;
      return 'Tool call blocked: a before_tool hook returned something other than nothing or { block }';
    }
    return null;
  }
}

function isBlock(value: unknown): value is { block: string } {
  return typeof value === 'object' && value !== null && 'block' in value && typeof value.block === 'string';
}
