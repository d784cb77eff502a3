import type { JsonSchema, JsonValue } from '@pi/remote';

const MAX_CHOICES = 6;

/**
 * A JSON Schema in a few words, for people: `string`, `"off" | "low" | "high"`, `{ provider, modelId }`,
 * `{ type: "delta", text }`, `{ text }[]`, `string | null`. Objects name their properties (`?` when optional) and
 * fixed values, not their types: `pi services --json` has the whole schema.
 */
export function summarizeSchema(schema: JsonValue | undefined, nested = false): string {
  if (!isObject(schema) || Object.keys(schema).length === 0) return 'any';
  if ('const' in schema) return JSON.stringify(schema['const']);
  if (Array.isArray(schema['enum'])) return choices(schema['enum'].map((value) => JSON.stringify(value)));
  const union = schema['anyOf'] ?? schema['oneOf'];
  if (Array.isArray(union)) return choices(union.map((part) => summarizeSchema(part, nested)));
  if ('$ref' in schema) return nested ? '…' : summarizeSchema(definitionOf(schema), true);
  const type = schema['type'];
  if (Array.isArray(type)) return choices(type.map((part) => summarizeSchema({ ...schema, type: part }, nested)));
  if (type === 'array') return `${wrapped(summarizeSchema(schema['items'], true))}[]`;
  if (type === 'object') return objectSummary(schema, nested);
  return typeof type === 'string' ? type : 'any';
}

function objectSummary(schema: JsonSchema, nested: boolean): string {
  const properties = isObject(schema['properties']) ? Object.keys(schema['properties']) : [];
  if (properties.length === 0) {
    const values = schema['additionalProperties'];
    return isObject(values) ? `{ [key]: ${summarizeSchema(values, true)} }` : '{}';
  }
  if (nested && properties.length > 4) return '{ … }';
  const required = new Set(Array.isArray(schema['required']) ? schema['required'] : []);
  const described = schema['properties'] as JsonSchema;
  return `{ ${properties.map((name) => `${required.has(name) ? name : `${name}?`}${fixedValue(described[name])}`).join(', ')} }`;
}

/** A property with one possible value (a union's discriminator, `type: "delta"`) shows it. */
function fixedValue(schema: JsonValue | undefined): string {
  if (!isObject(schema)) return '';
  if ('const' in schema) return `: ${JSON.stringify(schema['const'])}`;
  const values = schema['enum'];
  return Array.isArray(values) && values.length === 1 ? `: ${JSON.stringify(values[0])}` : '';
}

/** What a top-level `$ref` (`#/$defs/name`, a recursive schema) points to; nested references stay `…`. */
function definitionOf(schema: JsonSchema): JsonValue | undefined {
  const name = /^#\/\$defs\/(.+)$/.exec(String(schema['$ref']))?.[1];
  const definitions = schema['$defs'];
  return name !== undefined && isObject(definitions) && isObject(definitions[name]) ? definitions[name] : undefined;
}

function choices(parts: readonly string[]): string {
  const unique = [...new Set(parts)];
  return unique.length > MAX_CHOICES ? `${unique.slice(0, MAX_CHOICES).join(' | ')} | …` : unique.join(' | ');
}

function wrapped(text: string): string {
  return text.includes(' | ') ? `(${text})` : text;
}

function isObject(value: JsonValue | undefined): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
