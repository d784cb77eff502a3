import type { PromptRejection } from '@pi/agent';
import type { PromptResponse } from '@pi/chat';

/** The lane's answer as the contract's JSON: acceptance, or the rejection with its stable code. */
export function acceptedResponse(operationId: string): PromptResponse {
  return { accepted: true, operationId, error: null };
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
      return { accepted: false, operationId: null, error: { code: rejection.code, message: rejection.message } };
  }
}
