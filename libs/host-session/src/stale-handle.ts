/**
 * A facet context that goes stale with its plugin set: every function and getter on it, nested objects included,
 * throws `check`'s error once the set was replaced by a reload, so a plugin that kept its old context (a timer, a
 * module-level variable) learns at once instead of acting on a session it no longer belongs to. Values a function
 * returns are left as they are; only plain objects are copied (class instances and data pass through).
 */
export function staleAfter<T extends object>(context: T, check: () => void): T {
  return guard(context, check) as T;
}

function guard(value: unknown, check: () => void): unknown {
  if (typeof value === 'function') {
    const target = value as (...args: unknown[]) => unknown;
    return function guarded(this: unknown, ...args: unknown[]) {
      check();
      return target.apply(this, args);
    };
  }
  if (!isPlainObject(value)) return value;
  const copy: Record<PropertyKey, unknown> = {};
  for (const key of Reflect.ownKeys(value)) {
    const descriptor = Object.getOwnPropertyDescriptor(value, key);
    if (descriptor === undefined) continue;
    const getter = descriptor.get;
    if (getter !== undefined) {
      Object.defineProperty(copy, key, {
        enumerable: descriptor.enumerable ?? true,
        get: () => {
          check();
          return getter.call(value);
        },
      });
    } else {
      Object.defineProperty(copy, key, {
        enumerable: descriptor.enumerable ?? true,
        value: guard(descriptor.value, check),
      });
    }
  }
  return Object.freeze(copy);
}

function isPlainObject(value: unknown): value is object {
  if (typeof value !== 'object' || value === null) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** What a stale context throws: the plugin, the set it belongs to and that a reload replaced it. */
export class StalePluginSetError extends Error {
  override readonly name = 'StalePluginSetError';

  constructor(pluginId: string, generation: number, live: number, refused = false) {
    const fate = refused ? 'which /reload refused' : 'replaced by /reload';
    super(`Plugin "${pluginId}": this context belongs to plugin set ${generation}, ${fate} (set ${live} is live)`);
  }
}
