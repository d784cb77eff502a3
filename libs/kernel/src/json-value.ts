import { checkJson, describeJsonViolation } from '@pi/json';

/** A strict JSON value: what a manifest may carry between processes. */
export type JsonValue = null | boolean | number | string | readonly JsonValue[] | { readonly [key: string]: JsonValue };

/**
 * Describes the first place where `value` is not strict JSON, or returns null when it is.
 * `where` names the root in the description (for example `plugins[2].config`).
 */
export function findNonJson(value: unknown, where: string): string | null {
  const checked = checkJson(value, where);
  return checked.isOk() ? null : describeJsonViolation(checked.error);
}
