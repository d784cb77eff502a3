import { err, ok, type Result } from 'neverthrow';
import { ACTIONS, isAction, type Action } from './actions';
import { parseKeyId } from './key-id';
import { createKeymap, type Keymap } from './keymap';

/**
 * Reads a keybindings file: a JSON object of action → key or keys (`[]` unbinds). Actions not named keep their
 * defaults. Anything wrong is one error value naming the action or key, never a throw.
 */

export const KEYMAP_ERROR_CODES = {
  invalid_json: 'invalid_json',
  not_an_object: 'not_an_object',
  unknown_action: 'unknown_action',
  invalid_binding: 'invalid_binding',
  invalid_key: 'invalid_key',
} as const;

export type KeymapErrorCode = keyof typeof KEYMAP_ERROR_CODES;

export interface KeymapError {
  readonly code: KeymapErrorCode;
  readonly message: string;
  readonly action?: string;
  readonly key?: string;
}

/** `json` is the file's text or its parsed value. */
export function keymapFromJson(json: unknown): Result<Keymap, KeymapError> {
  let value = json;
  if (typeof json === 'string') {
    try {
      value = JSON.parse(json) as unknown;
    } catch (error) {
      return err({ code: 'invalid_json', message: `keybindings are not JSON: ${(error as Error).message}` });
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return err({ code: 'not_an_object', message: 'keybindings must be an object of action → key or keys' });
  }
  const overrides: Partial<Record<Action, string[]>> = {};
  for (const [action, binding] of Object.entries(value)) {
    if (!isAction(action)) {
      return err({
        code: 'unknown_action',
        action,
        message: `unknown action "${action}" in keybindings (the actions: ${ACTIONS.join(', ')})`,
      });
    }
    const keys: unknown[] = Array.isArray(binding) ? binding : [binding];
    const ids: string[] = [];
    for (const key of keys) {
      if (typeof key !== 'string') {
        return err({
          code: 'invalid_binding',
          action,
          message: `"${action}" must be bound to a key name or a list of key names`,
        });
      }
      const parsed = parseKeyId(key);
      if (parsed.isErr()) {
        return err({
          code: 'invalid_key',
          action,
          key,
          message: `"${action}": ${parsed.error.reason}`,
        });
      }
      if (!ids.includes(parsed.value)) ids.push(parsed.value);
    }
    overrides[action] = ids;
  }
  return ok(createKeymap(overrides));
}
