import { QUESTION_PLUGIN_ID, QUESTION_TOOL_NAME } from '@pi/question';
import { parseQuestionConfig } from './question-config';
import { askOnView } from './ask-on-view';
import { questionTool } from './question-tool';
import type { CodingAgentSessionPluginContext } from '@pi/plugin-api';

/** The manifest id this facet answers to. */
export const pluginId = QUESTION_PLUGIN_ID;

/**
 * The session facet of @pi/question: contributes the `question` tool, which opens the question as a view. It knows
 * nothing of dialogs or keys; a presentation facet shows the view and sends the answer. With no presentation
 * attached, a question waits only `unattendedTimeoutMs` for one before it fails closed (the unattended-session policy).
 */
export function questionSessionFacet(context: CodingAgentSessionPluginContext): void {
  const { timeoutMs, unattendedTimeoutMs } = parseQuestionConfig(context.config);
  const tool = questionTool(askOnView(context, { timeoutMs, unattendedTimeoutMs }));
  context.tools.add((draft) => draft.set(QUESTION_TOOL_NAME, tool));
}
