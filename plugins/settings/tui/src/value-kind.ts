import type { JsonObject, JsonValue } from '@pi/plugin-api';

/** How `/settings` edits a value, read from the setting's JSON Schema. */
export type ValueKind =
  | { readonly kind: 'choice'; readonly options: readonly JsonValue[] }
  | { readonly kind: 'number'; readonly integer: boolean }
  | { readonly kind: 'string' }
  | { readonly kind: 'json' };

/**
 * An enum or a boolean is a choice; a number or a string is typed; anything else (objects, unions, null) is typed
 * as JSON. The session checks the value against the full schema either way.
 */
export function valueKind(schema: JsonObject): ValueKind {
  const options = schema['enum'];
  if (Array.isArray(options) && options.length > 0) return { kind: 'choice', options };
  if ('const' in schema && schema['const'] !== undefined) return { kind: 'choice', options: [schema['const']] };
  switch (schema['type']) {
    case 'boolean':
      return { kind: 'choice', options: [true, false] };
    case 'number':
      return { kind: 'number', integer: false };
    case 'integer':
      return { kind: 'number', integer: true };
    case 'string':
      return { kind: 'string' };
    default:
      return { kind: 'json' };
  }
}

/** Typed text as a value of its kind, or what is wrong with it. */
export function parseTyped(kind: ValueKind, text: string): { value: JsonValue } | { problem: string } {
  switch (kind.kind) {
    case 'string':
      return { value: text };
    case 'number': {
      const value = Number(text.trim());
      if (text.trim() === '' || !Number.isFinite(value)) return { problem: `"${text}" is not a number` };
      if (kind.integer && !Number.isInteger(value)) return { problem: `"${text}" is not a whole number` };
      return { value };
    }
    case 'choice':
    case 'json':
      try {
        return { value: JSON.parse(text) as JsonValue };
      } catch {
        return { problem: 'Not valid JSON' };
      }
  }
}

/** A value as `/settings` shows it: strings bare, everything else as JSON. */
export function formatValue(value: JsonValue): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}
