import type { AgentToolResult } from '@pi/plugin-api';
import type { DenialCode, PermissionDeniedDetails } from '@pi/permissions';

/** Why, in words the model and the user read; a code without words here does not compile. */
const REASONS: Record<DenialCode, string> = {
  user_denied: 'the user denied it',
  deny_all: 'the session’s permission mode denies every guarded tool call',
  no_handler: 'no connected client can confirm tool calls',
  timeout: 'the user did not answer in time',
  disconnected: 'the client asking the user disconnected',
  invalid_result: 'the client sent a malformed answer',
  cancelled: 'the confirmation was cancelled',
  failed: 'the confirmation could not be completed',
};

/** The result of a call that was not allowed: an error the model can read, saying why, and that nothing ran. */
export function deniedResult(tool: string, code: DenialCode): AgentToolResult<PermissionDeniedDetails> {
  return {
    content: [{ type: 'text', text: `Permission denied: ${REASONS[code]}; ${tool} did not run (${code})` }],
    details: { permission: 'denied', tool, code },
    isError: true,
  };
}
