import { err, ok, type Result } from 'neverthrow';
import { findNonJson, type JsonValue } from './json-value';
import type { ManifestError, ManifestErrorCode } from './manifest-error';

/** One plugin of the manifest: its identity, and its JSON configuration (null when none is given). */
export interface ManifestEntry {
  readonly id: string;
  readonly config: JsonValue | null;
}

/** The ordered plugin list every host of a deployment shares. */
export interface PluginManifest {
  readonly entries: readonly ManifestEntry[];
}

const manifestKeys = new Set(['plugins']);
const entryKeys = new Set(['id', 'config']);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function fail(code: ManifestErrorCode, message: string): Result<never, ManifestError> {
  return err({ code, message });
}

function firstUnknownKey(record: Record<string, unknown>, allowed: ReadonlySet<string>): string | undefined {
  return Object.keys(record).find((key) => !allowed.has(key));
}

function parseEntry(raw: unknown, where: string): Result<ManifestEntry, ManifestError> {
  if (typeof raw === 'string')
    return raw.trim() === '' ? fail('empty_id', `${where} has an empty id`) : ok({ id: raw, config: null });
  if (!isRecord(raw)) {
    return fail('invalid_entry', `${where} must be a plugin id string or an object { "id", "config"? }`);
  }
  const unknownKey = firstUnknownKey(raw, entryKeys);
  if (unknownKey !== undefined) {
    return fail('unknown_key', `${where} has unknown key "${unknownKey}" (allowed: "id", "config")`);
  }
  const { id, config = null } = raw;
  if (typeof id !== 'string') return fail('invalid_entry', `${where}.id must be a string`);
  if (id.trim() === '') return fail('empty_id', `${where} has an empty id`);
  const nonJson = findNonJson(config, `${where}.config`);
  if (nonJson !== null) return fail('invalid_config', `${nonJson}; plugin config must be strict JSON`);
  return ok({ id, config: config as JsonValue });
}

/**
 * Validates a manifest of the form `{ "plugins": ["@pi/a", { "id": "@pi/b", "config": {...} }] }`.
 * Unknown keys are rejected so that a misspelt key cannot silently drop configuration.
 */
export function parseManifest(json: unknown): Result<PluginManifest, ManifestError> {
  if (!isRecord(json)) return fail('not_an_object', 'a manifest must be a JSON object with a "plugins" array');
  const unknownKey = firstUnknownKey(json, manifestKeys);
  if (unknownKey !== undefined)
    return fail('unknown_key', `the manifest has unknown key "${unknownKey}" (allowed: "plugins")`);
  if (!('plugins' in json)) return fail('missing_plugins', 'the manifest has no "plugins" key');
  const { plugins } = json;
  if (!Array.isArray(plugins)) return fail('plugins_not_array', '"plugins" must be an array');
  const entries: ManifestEntry[] = [];
  const seen = new Set<string>();
  for (const [index, raw] of plugins.entries()) {
    const entry = parseEntry(raw, `plugins[${index}]`);
    if (entry.isErr()) return err(entry.error);
    if (seen.has(entry.value.id)) {
      return fail(
        'duplicate_id',
        `plugins[${index}] repeats plugin id "${entry.value.id}"; each plugin may appear once`,
      );
    }
    seen.add(entry.value.id);
    entries.push(entry.value);
  }
  return ok({ entries });
}
