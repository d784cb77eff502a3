/** A typed slot for a Context value; two keys with the same name are still different keys. */
export interface ContextKey<T> {
  readonly name: string;
  readonly defaultValue: T;
}

/** Creates a key; identity is the returned object, so only code holding it can read or write its value. */
export function createContextKey<T>(name: string, defaultValue: T): ContextKey<T> {
  return Object.freeze({ name, defaultValue });
}
