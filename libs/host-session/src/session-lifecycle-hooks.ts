import {
  callHook,
  OrderedHooks,
  type SessionShutdownHook,
  type SessionShutdownInfo,
  type SessionStartHook,
  type SessionStartInfo,
} from '@pi/agent';
import { BACKGROUND_CONTEXT } from '@pi/context';
import type { CallbackFailures } from '@pi/host-kit';

/** Each start hook may take this long: the session is not served to clients until every one returned. */
export const SESSION_START_HOOK_TIMEOUT_MS = 5_000;
/** All shutdown hooks together get this long, well inside the 5 s a coordinator waits after SIGTERM. */
export const SESSION_SHUTDOWN_HOOKS_TIMEOUT_MS = 2_000;

export interface LifecycleHookDeadlines {
  readonly sessionStartMs?: number;
  readonly sessionShutdownMs?: number;
}

/**
 * The session's start and shutdown notifications. Start hooks run once, in manifest order, one after the other,
 * each bounded; shutdown hooks run once, called in reverse manifest order (the order facets are disposed in) and
 * awaited together under one deadline, so a slow plugin cannot take another's time. What a hook returns is
 * ignored; a throw, a rejection or a missed deadline is recorded against its plugin and the others still run.
 */
export class SessionLifecycleHooks {
  readonly #start: OrderedHooks<SessionStartHook>;
  readonly #shutdown: OrderedHooks<SessionShutdownHook>;
  readonly #failures: CallbackFailures;
  readonly #deadlines: Required<LifecycleHookDeadlines>;
  #started = false;
  #stopped = false;

  constructor(
    ownerRank: (owner: string) => number,
    failures: CallbackFailures,
    deadlines: LifecycleHookDeadlines = {},
  ) {
    this.#start = new OrderedHooks(ownerRank);
    this.#shutdown = new OrderedHooks(ownerRank);
    this.#failures = failures;
    this.#deadlines = {
      sessionStartMs: deadlines.sessionStartMs ?? SESSION_START_HOOK_TIMEOUT_MS,
      sessionShutdownMs: deadlines.sessionShutdownMs ?? SESSION_SHUTDOWN_HOOKS_TIMEOUT_MS,
    };
  }

  sessionStart(hook: SessionStartHook, owner: string): () => void {
    return this.#start.add(hook, owner);
  }

  sessionShutdown(hook: SessionShutdownHook, owner: string): () => void {
    return this.#shutdown.add(hook, owner);
  }

  /** Tells the start hooks, once; resolves when every one returned or missed its deadline. */
  async started(info: SessionStartInfo): Promise<void> {
    if (this.#started) return;
    this.#started = true;
    const frozen = Object.freeze({ ...info, recovery: Object.freeze([...info.recovery]) });
    for (const { hook, owner } of this.#start.list()) {
      const outcome = await callHook(
        (context) => hook(frozen, context),
        BACKGROUND_CONTEXT,
        this.#deadlines.sessionStartMs,
      );
      if (outcome.kind === 'failed') this.#failures.record(owner, `session_start hook ${outcome.message}`);
    }
  }

  /** Tells the shutdown hooks, once; resolves when all returned, or at the deadline. */
  async stopping(info: SessionShutdownInfo): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    const frozen = Object.freeze({ ...info });
    const calls = [...this.#shutdown.list()].reverse().map(async ({ hook, owner }) => {
      const outcome = await callHook(
        (context) => hook(frozen, context),
        BACKGROUND_CONTEXT,
        this.#deadlines.sessionShutdownMs,
      );
      if (outcome.kind === 'failed') this.#failures.record(owner, `session_shutdown hook ${outcome.message}`);
    });
    await Promise.all(calls);
  }
}
