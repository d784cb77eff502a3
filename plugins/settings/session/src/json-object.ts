import type { JsonObject, JsonValue } from '@pi/remote';

export function isJsonObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Layers merged left to right: where both sides hold a plain object the merge recurses, anything else (an
 * array, a primitive, null) replaces what came before. Inputs are not modified.
 */
export function deepMerge(...layers: readonly JsonObject[]): JsonObject {
  const merged: JsonObject = {};
  for (const layer of layers) {
    for (const [key, value] of Object.entries(layer)) {
      const earlier = merged[key];
      merged[key] = isJsonObject(earlier) && isJsonObject(value) ? deepMerge(earlier, value) : value;
    }
  }
  return merged;
}

/** The value at a dotted path, or undefined when a segment is missing or not an object. */
export function readPath(root: JsonObject, key: string): JsonValue | undefined {
  let current: JsonValue | undefined = root;
  for (const segment of key.split('.')) {
    if (!isJsonObject(current) || !Object.hasOwn(current, segment)) return undefined;
    current = current[segment];
  }
  return current;
}

/** A copy of root with the dotted path set to value; intermediate non-objects are replaced by objects. */
export function writePath(root: JsonObject, key: string, value: JsonValue): JsonObject {
  const [head, ...rest] = key.split('.');
  if (head === undefined) return root;
  if (rest.length === 0) return { ...root, [head]: value };
  const child = root[head];
  return { ...root, [head]: writePath(isJsonObject(child) ? child : {}, rest.join('.'), value) };
}

/** A copy of root without the dotted path; objects left empty on the way are removed too. */
export function removePath(root: JsonObject, key: string): JsonObject {
  const [head, ...rest] = key.split('.');
  if (head === undefined || !Object.hasOwn(root, head)) return root;
  const { [head]: child, ...others } = root;
  if (rest.length === 0) return others;
  if (!isJsonObject(child)) return root;
  const pruned = removePath(child, rest.join('.'));
  return Object.keys(pruned).length === 0 ? others : { ...root, [head]: pruned };
}
