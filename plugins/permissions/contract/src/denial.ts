import { z } from 'zod';

/** Why a guarded tool call did not run. */
export const DENIAL_CODES = {
  /** The user answered "deny" (or pressed Esc, or closed the dialog). */
  user_denied: 'user_denied',
  /** The plugin's mode is `deny-all`: nobody was asked. */
  deny_all: 'deny_all',
  /** No connected presentation handles the confirmation. */
  no_handler: 'no_handler',
  /** Nobody answered in time. */
  timeout: 'timeout',
  /** The client asking the user disconnected. */
  disconnected: 'disconnected',
  /** The answer was not one of the contract's. */
  invalid_result: 'invalid_result',
  /** The run was aborted while the user was being asked. */
  cancelled: 'cancelled',
  /** Anything else kept the confirmation from completing. */
  failed: 'failed',
} as const;

export type DenialCode = (typeof DENIAL_CODES)[keyof typeof DENIAL_CODES];

/** The `details` of a denied call's tool result, so a renderer can tell a denial from the tool's own failure. */
export type PermissionDeniedDetails = {
  permission: 'denied';
  tool: string;
  code: DenialCode;
};

const denialCodes = Object.values(DENIAL_CODES) as [DenialCode, ...DenialCode[]];

export const permissionDeniedDetailsSchema: z.ZodType<PermissionDeniedDetails> = z.object({
  permission: z.literal('denied'),
  tool: z.string(),
  code: z.enum(denialCodes),
});
