import { isPlainObject } from './plain-object';

/**
 * Structural equality over plain objects and arrays in which any two functions are equal:
 * replay recreates wrapper closures on every rebuild, so function identity says nothing about change.
 * Other objects compare by reference.
 */
export function dataEquals(left: unknown, right: unknown): boolean {
  return equalsWithin(left, right, new Map());
}

function equalsWithin(left: unknown, right: unknown, comparing: Map<object, Set<object>>): boolean {
  if (Object.is(left, right)) return true;
  if (typeof left === 'function' && typeof right === 'function') return true;
  const bothArrays = Array.isArray(left) && Array.isArray(right);
  const bothPlain = isPlainObject(left) && isPlainObject(right);
  if (!bothArrays && !bothPlain) return false;
  const leftObject = left as Record<string, unknown>;
  const rightObject = right as Record<string, unknown>;
  // A pair already being compared further up is assumed equal, so cyclic values terminate.
  const partners = comparing.get(leftObject) ?? new Set<object>();
  if (partners.has(rightObject)) return true;
  comparing.set(leftObject, partners.add(rightObject));
  const leftKeys = Object.keys(leftObject);
  if (leftKeys.length !== Object.keys(rightObject).length) return false;
  return leftKeys.every(
    (key) => Object.hasOwn(rightObject, key) && equalsWithin(leftObject[key], rightObject[key], comparing),
  );
}
