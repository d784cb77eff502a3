import type { Context, TuiFacilities } from '@pi/plugin-api';
import { MAX_CUSTOM_ANSWER_LENGTH, type QuestionRequest, type QuestionResponse } from '@pi/question';
import { printable } from './printable';
import { TYPE_SOMETHING, questionChoices } from './question-choices';

const CANCELLED: QuestionResponse = { outcome: 'cancelled' };

/**
 * Answers the session's QuestionInteraction with the terminal's dialogs: a select of the options plus
 * "Type something…" (which opens a line for a custom answer). Esc, an empty answer, or the session cancelling
 * the request (its signal closes the open dialog) answer `cancelled`.
 */
export function askInTerminal(ui: TuiFacilities) {
  return async (request: QuestionRequest, context: Context): Promise<QuestionResponse> => {
    const signal = context.abortSignal;
    const choices = questionChoices(request);
    const choice = await ui.select(printable(request.question), choices, { signal });
    if (choice === undefined) return CANCELLED;
    const index = choices.indexOf(choice);
    if (index >= 0 && index < request.options.length) return { outcome: 'selected', index };
    return typedAnswer(ui, signal);
  };
}

async function typedAnswer(ui: TuiFacilities, signal: AbortSignal | undefined): Promise<QuestionResponse> {
  let title = 'Your answer';
  for (;;) {
    const answer = (await ui.input(title, TYPE_SOMETHING, { signal }))?.trim() ?? '';
    if (answer === '') return CANCELLED;
    if (answer.length <= MAX_CUSTOM_ANSWER_LENGTH) return { outcome: 'custom', answer };
    // The contract refuses a longer answer (the question would fail closed): ask again rather than cut it.
    title = `Your answer — at most ${MAX_CUSTOM_ANSWER_LENGTH} characters, that was ${answer.length}`;
  }
}
