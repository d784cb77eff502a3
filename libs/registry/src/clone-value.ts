import { isPlainObject } from './plain-object';

/**
 * Deep-clones plain objects and arrays; functions and other objects (class instances, Maps, handles)
 * are kept by reference, because values may carry live behaviour that must not be copied.
 */
export function cloneValue<T>(value: T): T {
  return cloneWithin(value, new Map()) as T;
}

function cloneWithin(value: unknown, copies: Map<object, unknown>): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const existing = copies.get(value);
  if (existing !== undefined) return existing;
  if (Array.isArray(value)) {
    const copy: unknown[] = [];
    copies.set(value, copy);
    for (const item of value) copy.push(cloneWithin(item, copies));
    return copy;
  }
  if (!isPlainObject(value)) return value;
  const copy: Record<PropertyKey, unknown> = Object.create(Object.getPrototypeOf(value) as object | null);
  copies.set(value, copy);
  for (const key of Reflect.ownKeys(value)) {
    if (Object.prototype.propertyIsEnumerable.call(value, key)) copy[key] = cloneWithin(value[key], copies);
  }
  return copy;
}
