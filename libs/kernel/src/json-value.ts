/** A strict JSON value: what a manifest may carry between processes. */
export type JsonValue = null | boolean | number | string | readonly JsonValue[] | { readonly [key: string]: JsonValue };

function isPlainObject(value: object): boolean {
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * Describes the first place where `value` is not strict JSON, or returns null when it is.
 * `where` names the root in the description (for example `plugins[2].config`).
 */
export function findNonJson(value: unknown, where: string, seen: Set<object> = new Set()): string | null {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return null;
  if (typeof value === 'number') return Number.isFinite(value) ? null : `${where} is a non-finite number`;
  if (typeof value !== 'object') return `${where} is ${typeof value === 'undefined' ? 'undefined' : `a ${typeof value}`}`;
  if (seen.has(value)) return `${where} is a circular reference`;
  seen.add(value);
  try {
    if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index += 1) {
        const found = findNonJson(value[index], `${where}[${index}]`, seen);
        if (found !== null) return found;
      }
      return null;
    }
    if (!isPlainObject(value)) return `${where} is a ${value.constructor?.name ?? 'non-plain'} instance, not a plain object`;
    for (const [key, entry] of Object.entries(value)) {
      const found = findNonJson(entry, `${where}.${key}`, seen);
      if (found !== null) return found;
    }
    return null;
  } finally {
    seen.delete(value);
  }
}
