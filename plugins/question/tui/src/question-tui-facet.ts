import type { Facet } from '@pi/plugin-api';
import { QUESTION_PLUGIN_ID, QUESTION_TOOL_NAME, QuestionInteraction } from '@pi/question';
import { askInTerminal } from './question-dialog';
import { questionRenderer } from './question-renderer';

/** The manifest id this facet answers to. */
export const pluginId = QUESTION_PLUGIN_ID;

/**
 * The TUI facet of @pi/question (the spec's example): it answers the session's QuestionInteraction with the
 * terminal's dialogs and renders the `question` tool's calls and durable results. It knows nothing of tools
 * or runs; the session facet builds the result from the JSON answer.
 */
export const questionTuiFacet: Facet<'tui'> = (context) => {
  context.interactions.handle(QuestionInteraction, askInTerminal(context.ui));
  context.toolRenderers.add(QUESTION_TOOL_NAME, questionRenderer);
};
