import type { AgentToolResult } from '@pi/agent';
import type { QuestionDetails, QuestionRequest } from '@pi/question';
import { RemoteError } from '@pi/remote';

/** A durable tool result with the details the question renderer reads. */
export function questionResult(
  request: QuestionRequest,
  answer: string | null,
  wasCustom: boolean,
  text: string,
  isError = false,
): AgentToolResult<QuestionDetails> {
  return {
    content: [{ type: 'text', text }],
    details: { question: request.question, options: request.options.map((option) => option.label), answer, wasCustom },
    ...(isError ? { isError: true } : {}),
  };
}

/**
 * Fail closed: whatever kept the user from answering, the model gets an error result that says so and no
 * answer, and the run goes on instead of hanging. The code stays in the text, so a reader can tell the cases apart.
 */
export function unansweredResult(request: QuestionRequest, failure: unknown): ReturnType<typeof questionResult> {
  const error =
    failure instanceof RemoteError ? failure : new RemoteError('internal', 'The question could not be asked');
  return questionResult(
    request,
    null,
    false,
    `The question was not answered: ${reasonText(error)} (${error.code})`,
    true,
  );
}

function reasonText(error: RemoteError): string {
  switch (error.code) {
    case 'no_handler':
      return 'no connected client can answer questions';
    case 'timeout':
      return 'the user did not answer in time';
    case 'disconnected':
      return 'the client asking the user disconnected';
    case 'invalid_result':
      return 'the client sent a malformed answer';
    case 'cancelled':
      return 'the question was cancelled';
    default:
      return error.message;
  }
}
