import type { Facet } from '@pi/plugin-api';
import { QUESTION_PLUGIN_ID, QUESTION_TOOL_NAME, QuestionView } from '@pi/question';
import { questionRenderer } from './question-renderer';
import { questionWidget } from './question-widget';

/** The manifest id this facet answers to. */
export const pluginId = QUESTION_PLUGIN_ID;

/**
 * The TUI facet of @pi/question (the spec's example): it shows the session's question views over the transcript
 * and sends the answer back, and renders the `question` tool's calls and durable results. It knows nothing of tools
 * or runs; the session facet builds the result from the JSON answer.
 */
export const questionTuiFacet: Facet<'tui'> = (context) => {
  context.views.add({ definition: QuestionView, placement: 'overlay', create: questionWidget });
  context.toolRenderers.add(QUESTION_TOOL_NAME, questionRenderer);
};
