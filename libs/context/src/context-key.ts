/** A typed slot for a Context value; two keys with the same name are still different keys. */
export interface ContextKey<T> {
  readonly name: string;
  readonly defaultValue: T;
}

/** Creates a key; identity is the returned object, so only code holding it can read or write its value. */
export function createContextKey<T>(name: string, defaultValue: T): ContextKey<T> {
  return Object.freeze({ name, defaultValue });
}

/** Where shared keys live: one table per process, whichever copy of this library creates it first. */
const SHARED_KEYS = Symbol.for('@pi/context.shared-keys.v1');

type SharedKeyTable = Map<string, ContextKey<unknown>>;

function sharedKeyTable(): SharedKeyTable {
  const holder = globalThis as { [SHARED_KEYS]?: SharedKeyTable };
  const existing = holder[SHARED_KEYS];
  if (existing !== undefined) return existing;
  const table: SharedKeyTable = new Map();
  // Not writable, not configurable: no later copy can swap the table and split the keys.
  Object.defineProperty(globalThis, SHARED_KEYS, { value: table });
  return table;
}

/**
 * A well-known key: every copy of this library in the process (a plugin may bundle its own) gets the same key
 * object for a name, so values set through one copy are read through another. The first definition of a name
 * wins, default included. Any code that knows the name can read and set the value: keep private values on
 * `createContextKey`, and namespace names (`pi.client-id`).
 */
export function defineSharedContextKey<T>(name: string, defaultValue: T): ContextKey<T> {
  const table = sharedKeyTable();
  const existing = table.get(name);
  // Whoever shares a name shares its type: that is the contract of a shared key.
  if (existing !== undefined) return existing as ContextKey<T>;
  const key = createContextKey(name, defaultValue);
  table.set(name, key);
  return key;
}
