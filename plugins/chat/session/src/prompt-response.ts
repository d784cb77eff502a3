import type { PromptAcceptance, PromptRejection } from '@pi/agent';
import type { PromptResponse } from '@pi/chat';

/**
 * The lane's answer as the contract's JSON: acceptance, or the rejection with its stable code. `duplicate` is
 * present only on a resend, so a first acceptance reads as it always did.
 */
export function acceptedResponse(acceptance: PromptAcceptance): PromptResponse {
  const { operationId, duplicate } = acceptance;
  return duplicate
    ? { accepted: true, operationId, error: null, duplicate }
    : { accepted: true, operationId, error: null };
}

export function rejectedResponse(rejection: PromptRejection): PromptResponse {
  switch (rejection.code) {
    case 'busy':
      return {
        accepted: false,
        operationId: rejection.operationId,
        error: { code: 'busy', message: rejection.message },
      };
    case 'no_model':
    case 'invalid_message':
    case 'session_file_unwritable':
    case 'too_large':
      return { accepted: false, operationId: null, error: { code: rejection.code, message: rejection.message } };
  }
}
