import { errorMessage } from './error-message';
import type { DisposalFailure } from './kernel-errors';
import { LateActivationError, StaleScopeError } from './scope-errors';

type Callback = () => void | Promise<void>;

/** The kernel's entire per-facet contract; host contexts are built around it. */
export interface PluginLifecycleScope {
  onActivate(callback: Callback): void;
  onDispose(callback: Callback): void;
  own(disposal: Callback): void;
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

export function createLifecycleScope(pluginId: string): LifecycleScopeHandle {
  let state: ScopeState = 'setup';
  const activations: Callback[] = [];
  const disposals: Callback[] = [];

  function refuseWhenDisposed(method: 'onActivate' | 'onDispose' | 'own'): void {
    if (state === 'disposed') throw new StaleScopeError(pluginId, method);
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
  });

  return {
    pluginId,
    scope,
    async activate(): Promise<void> {
      state = 'activating';
      // Indexed loop: an activation callback may register another one, which then runs in this pass.
      for (let index = 0; index < activations.length && state === 'activating'; index += 1) {
        await activations[index]?.();
      }
      if (state === 'activating') state = 'active';
    },
    async dispose(): Promise<DisposalFailure[]> {
      if (state === 'disposed') return [];
      state = 'disposed';
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
