import { z } from 'zod';
import { MAX_CONFIRM_TIMEOUT_MS } from '@pi/permissions';
import { DEFAULT_INTERACTION_TIMEOUT_MS } from '@pi/remote';
import { DEFAULT_UNATTENDED_TIMEOUT_MS } from '@pi/plugin-api';

/** `ask` confirms each guarded call with the user; `allow-all` guards nothing; `deny-all` refuses every guarded call. */
export const PERMISSION_MODES = ['ask', 'allow-all', 'deny-all'] as const;
export type PermissionMode = (typeof PERMISSION_MODES)[number];

/** The plugin's manifest config: `{ "mode"?: "ask" | "allow-all" | "deny-all", "timeoutMs"?: n, "unattendedTimeoutMs"?: n }`. */
export interface PermissionConfig {
  readonly mode: PermissionMode;
  /** How long a confirmation waits for the user before the call is denied. */
  readonly timeoutMs: number;
  /** How long a confirmation waits for a presentation to attach when none is connected, before the call is denied. */
  readonly unattendedTimeoutMs: number;
}

const configSchema = z
  .strictObject({
    mode: z.enum(PERMISSION_MODES).optional(),
    timeoutMs: z.number().int().positive().max(MAX_CONFIRM_TIMEOUT_MS).optional(),
    unattendedTimeoutMs: z.number().int().positive().max(MAX_CONFIRM_TIMEOUT_MS).optional(),
  })
  .nullable();

const EXPECTED =
  '{ "mode"?: "ask" | "allow-all" | "deny-all", "timeoutMs"?: positive integer, "unattendedTimeoutMs"?: positive integer }';

/**
 * Reads the manifest config. A wrong one fails the plugin's setup (and so the session's start) rather than
 * silently falling back: a misspelt `"mode": "deny_all"` must not leave the tools guarded less than intended.
 */
export function parsePermissionConfig(raw: unknown): PermissionConfig {
  const parsed = configSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue === undefined || issue.path.length === 0 ? '' : `${issue.path.join('.')}: `;
    throw new TypeError(`@pi/permissions config must be ${EXPECTED}; ${where}${issue?.message ?? 'invalid'}`);
  }
  return {
    mode: parsed.data?.mode ?? 'ask',
    timeoutMs: parsed.data?.timeoutMs ?? DEFAULT_INTERACTION_TIMEOUT_MS,
    unattendedTimeoutMs: parsed.data?.unattendedTimeoutMs ?? DEFAULT_UNATTENDED_TIMEOUT_MS,
  };
}
