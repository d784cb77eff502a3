import type { Context } from '@pi/context';
import { callHook } from './hook-call';

/** The run-path hooks, as named in reports. */
export type RunHookName = 'after_tool' | 'before_model_request';

/** A run-path hook that was skipped: who registered it, which hook, and why (in words for a person). */
export interface HookFailure {
  readonly owner: string;
  readonly hook: RunHookName;
  readonly message: string;
}

/** How the harness orders, bounds and reports run-path hooks (the session host sets all three). */
export interface HookPolicy {
  /** An owner's manifest position: hooks compose by it (then by registration). Default: registration order. */
  readonly ownerRank?: (owner: string) => number;
  /** Told of every hook that failed and was skipped; a throw here is contained. */
  readonly onFailure?: (failure: HookFailure) => void;
  /** How long one asynchronous run-path hook may take. Default `DEFAULT_HOOK_TIMEOUT_MS`. */
  readonly timeoutMs?: number;
}

/** 30 s: room for a hook that does I/O (reads files, asks a local index), bounded so a hung one cannot stall a run. */
export const DEFAULT_HOOK_TIMEOUT_MS = 30_000;

/**
 * Calls run-path hooks under the policy: isolated, bounded, and their failures reported. `validate` turns what a
 * hook returned into its effect, or says what is wrong with it (reported like a throw).
 */
export class HookCaller {
  readonly #policy: HookPolicy;

  constructor(policy: HookPolicy) {
    this.#policy = policy;
  }

  /** The hook's checked effect; `undefined` when it returned nothing, failed (reported) or was abandoned. */
  async call<T>(
    name: RunHookName,
    owner: string,
    invoke: (context: Context) => unknown,
    validate: (value: unknown) => { ok: T | undefined } | { malformed: string },
    context: Context,
  ): Promise<T | undefined> {
    const outcome = await callHook(invoke, context, this.#policy.timeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS);
    if (outcome.kind === 'abandoned') return undefined;
    if (outcome.kind === 'failed') {
      this.#report({ owner, hook: name, message: `${name} hook ${outcome.message}` });
      return undefined;
    }
    const checked = validate(outcome.value);
    if ('ok' in checked) return checked.ok;
    this.#report({ owner, hook: name, message: `${name} hook returned ${checked.malformed}` });
    return undefined;
  }

  #report(failure: HookFailure): void {
    try {
      this.#policy.onFailure?.(failure);
    } catch {
      // A reporter that throws must not turn a skipped hook into a failed run.
    }
  }
}
