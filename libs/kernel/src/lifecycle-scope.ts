import { errorMessage } from './error-message';
import type { DisposalFailure, EffectFailure } from './kernel-errors';
import { LateActivationError, StaleScopeError } from './scope-errors';

type Callback = () => void | Promise<void>;
type EffectSetup = (signal: AbortSignal) => void | Promise<void>;

/** How long a disposal waits for aborted effects to settle before it reports them and goes on. */
export const EFFECT_SETTLE_MS = 2_000;

/** The kernel's entire per-facet contract; host contexts are built around it. */
export interface PluginLifecycleScope {
  onActivate(callback: Callback): void;
  onDispose(callback: Callback): void;
  own(disposal: Callback): void;
  /**
   * Runs `setup` once the plugin is active (at once if it already is) with a signal that aborts when the plugin is
   * disposed: the place for a plugin's I/O, timers and watchers. Activation does not wait for it; a throw or a
   * rejection before the abort is reported against the plugin, and disposal waits (briefly) for it to settle.
   */
  effect(setup: EffectSetup): void;
}

/** The kernel's side of one scope: the facet sees only `scope`. */
export interface LifecycleScopeHandle {
  readonly pluginId: string;
  readonly scope: PluginLifecycleScope;
  /** Runs onActivate callbacks in registration order; a throw propagates to the kernel. */
  activate(): Promise<void>;
  /** Runs disposals in reverse registration order, awaiting each; later calls return no failures. */
  dispose(): Promise<DisposalFailure[]>;
}

type ScopeState = 'setup' | 'activating' | 'active' | 'disposed';

export function createLifecycleScope(
  pluginId: string,
  reportEffectFailure: (failure: EffectFailure) => void,
): LifecycleScopeHandle {
  let state: ScopeState = 'setup';
  const activations: Callback[] = [];
  const disposals: Callback[] = [];
  const pendingEffects: EffectSetup[] = [];
  const lifetime = new AbortController();
  const runningEffects = new Set<Promise<void>>();

  function refuseWhenDisposed(method: 'onActivate' | 'onDispose' | 'own' | 'effect'): void {
    if (state === 'disposed') throw new StaleScopeError(pluginId, method);
  }

  function startEffect(setup: EffectSetup): void {
    const running = (async () => setup(lifetime.signal))()
      .catch((thrown: unknown) => {
        if (!lifetime.signal.aborted)
          reportEffectFailure({ pluginId, message: `effect failed: ${errorMessage(thrown)}` });
      })
      .finally(() => runningEffects.delete(running));
    runningEffects.add(running);
  }

  /** Aborts the effects and waits for them to settle, reporting those still running after EFFECT_SETTLE_MS. */
  async function stopEffects(): Promise<void> {
    lifetime.abort();
    if (runningEffects.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), EFFECT_SETTLE_MS)));
    const outcome = await Promise.race([Promise.all(runningEffects).then(() => 'settled' as const), late]);
    clearTimeout(timer);
    if (outcome === 'late') {
      const message = `${runningEffects.size} effect(s) still running ${EFFECT_SETTLE_MS} ms after the abort; left behind`;
      reportEffectFailure({ pluginId, message });
    }
  }

  const scope: PluginLifecycleScope = Object.freeze({
    onActivate(callback: Callback): void {
      refuseWhenDisposed('onActivate');
      if (state === 'active') throw new LateActivationError(pluginId);
      activations.push(callback);
    },
    onDispose(callback: Callback): void {
      refuseWhenDisposed('onDispose');
      disposals.push(callback);
    },
    own(disposal: Callback): void {
      refuseWhenDisposed('own');
      disposals.push(disposal);
    },
    effect(setup: EffectSetup): void {
      refuseWhenDisposed('effect');
      if (state === 'active') startEffect(setup);
      else pendingEffects.push(setup);
    },
  });

  return {
    pluginId,
    scope,
    async activate(): Promise<void> {
      if (state === 'disposed') return;
      state = 'activating';
      // Indexed loop: an activation callback may register another one, which then runs in this pass.
      for (let index = 0; index < activations.length && state === 'activating'; index += 1) {
        await activations[index]?.();
      }
      if (state !== 'activating') return;
      state = 'active';
      for (const setup of pendingEffects.splice(0)) startEffect(setup);
    },
    async dispose(): Promise<DisposalFailure[]> {
      if (state === 'disposed') return [];
      state = 'disposed';
      pendingEffects.length = 0;
      await stopEffects();
      const failures: DisposalFailure[] = [];
      for (const disposal of disposals.splice(0).reverse()) {
        try {
          await disposal();
        } catch (thrown) {
          failures.push({ pluginId, message: errorMessage(thrown) });
        }
      }
      activations.length = 0;
      return failures;
    },
  };
}
