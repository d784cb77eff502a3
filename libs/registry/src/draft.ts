/** The one draft shape every registry shares; per-registry sugar goes on top of it. */
export interface Draft<T> {
  /** Adds or replaces a value; a replaced id keeps its position. */
  set(id: string, value: T): void;
  /** Mutates a fresh clone of the value; on a missing id records a warning and does nothing. */
  update(id: string, fn: (value: T) => void): void;
  delete(id: string): void;
  has(id: string): boolean;
  ids(): readonly string[];
  /** Replaces the value with `fn(inner)`; later owners wrap outside earlier ones. Missing id: a warning. */
  wrap(id: string, fn: (inner: T) => T): void;
}

/** One contribution that shaped an entry; the trail of an entry reads like `base:set -> metrics:wrap`. */
export interface TrailStep {
  readonly owner: string;
  readonly operation: 'set' | 'update' | 'wrap';
}

/** A failure or warning recorded against the owner whose contribution caused it. */
export interface OwnerMessage {
  readonly owner: string;
  readonly message: string;
}
