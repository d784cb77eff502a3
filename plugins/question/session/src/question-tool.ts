import { z } from 'zod';
import type { AgentTool } from '@pi/agent';
import { QUESTION_TOOL_NAME, type QuestionDetails, type QuestionRequest } from '@pi/question';
import { RemoteError } from '@pi/remote';
import type { Ask } from './ask-on-view';
import { questionResult, unansweredResult } from './question-result';

/**
 * The arguments the model sends, matching QuestionRequest. A model may leave out an option's description,
 * so it defaults to null here; the interaction itself carries the strict contract.
 */
const questionParameters: z.ZodType<QuestionRequest> = z.object({
  question: z.string().min(1).describe('The question to ask the user'),
  options: z
    .array(
      z.object({
        label: z.string().min(1).describe('What the user picks'),
        description: z.string().nullable().default(null).describe('A short explanation of the option, or null'),
      }),
    )
    .describe('The choices offered; the user may also type an answer of their own'),
});

type QuestionTool = AgentTool<QuestionRequest, QuestionDetails>;

/** The `question` tool: it asks with `ask` (a view on the attached clients) and records the answer durably. */
export function questionTool(ask: Ask): QuestionTool {
  return {
    name: QUESTION_TOOL_NAME,
    label: 'Question',
    description: 'Ask the user a question and let them select an option or enter an answer of their own.',
    // One dialog at a time: two questions of one turn would race for the same user.
    executionMode: 'sequential',
    // Asking again after a restart is harmless (the same view, the same question): a run parked on it resumes.
    replay: 'safe',
    parameters: questionParameters,
    async execute(request, context) {
      if (request.options.length === 0) return questionResult(request, null, false, 'No options provided');
      let response;
      try {
        response = await ask(request, context);
      } catch (failure) {
        return unansweredResult(request, failure);
      }
      switch (response.outcome) {
        case 'cancelled':
          return questionResult(request, null, false, 'User cancelled the question');
        case 'custom':
          return questionResult(request, response.answer, true, `User wrote: ${response.answer}`);
        case 'selected': {
          const selected = request.options[response.index];
          if (selected === undefined) {
            const message = `The answer selected option ${response.index + 1} of ${request.options.length}`;
            return unansweredResult(request, new RemoteError('invalid_result', message));
          }
          return questionResult(
            request,
            selected.label,
            false,
            `User selected: ${response.index + 1}. ${selected.label}`,
          );
        }
      }
    },
  };
}
