import type { Context } from '@pi/context';
import type {
  AfterToolHook,
  BeforeModelRequestHook,
  BeforeToolHook,
  ModelRequestInfo,
  ToolCallInfo,
  ToolResultMessage,
} from '@pi/agent-contract';
import { rewriteToolResult } from './after-tool-hooks';
import { BeforeToolHooks } from './before-tool-hooks';
import { HookCaller, type HookPolicy } from './hook-caller';
import type { Hooks } from './harness-types';
import { modelRequestParts, type ModelRequestParts } from './model-request-hooks';
import { OrderedHooks } from './ordered-hooks';

/** The owner named for a hook registered without one (the harness's own users, tests). */
export const UNNAMED_HOOK_OWNER = 'unnamed';

/**
 * Every hook of the harness: registration (`Hooks`) and what the run asks of them. `before_tool` fails closed
 * (see BeforeToolHooks); `after_tool` and `before_model_request` fail open — a failing hook is skipped and reported.
 */
export class HarnessHooks implements Hooks {
  readonly #beforeTool = new BeforeToolHooks();
  readonly #afterTool: OrderedHooks<AfterToolHook>;
  readonly #beforeModelRequest: OrderedHooks<BeforeModelRequestHook>;
  readonly #caller: HookCaller;

  constructor(policy: HookPolicy = {}) {
    const rankOf = policy.ownerRank ?? (() => Number.POSITIVE_INFINITY);
    this.#afterTool = new OrderedHooks(rankOf);
    this.#beforeModelRequest = new OrderedHooks(rankOf);
    this.#caller = new HookCaller(policy);
  }

  beforeTool(hook: BeforeToolHook): () => void {
    return this.#beforeTool.beforeTool(hook);
  }

  afterTool(hook: AfterToolHook, owner: string = UNNAMED_HOOK_OWNER): () => void {
    return this.#afterTool.add(hook, owner);
  }

  beforeModelRequest(hook: BeforeModelRequestHook, owner: string = UNNAMED_HOOK_OWNER): () => void {
    return this.#beforeModelRequest.add(hook, owner);
  }

  /** The reason a call is blocked, or null when every `before_tool` hook let it through. */
  blockReason(call: ToolCallInfo, context: Context): Promise<string | null> {
    return this.#beforeTool.blockReason(call, context);
  }

  /** The call's result as the `after_tool` hooks leave it; never rejects. */
  rewriteResult(call: ToolCallInfo, result: ToolResultMessage, context: Context): Promise<ToolResultMessage> {
    return rewriteToolResult(this.#afterTool.list(), this.#caller, call, result, context);
  }

  /** The system prompt and messages to send, as the `before_model_request` hooks leave them; never rejects. */
  requestParts(request: ModelRequestInfo, context: Context): Promise<ModelRequestParts> {
    return modelRequestParts(this.#beforeModelRequest.list(), this.#caller, request, context);
  }
}
