import { questionSessionFacet } from './question-session-facet';

export { pluginId, questionSessionFacet } from './question-session-facet';
export { parseQuestionConfig, type QuestionConfig } from './question-config';
export { questionTool } from './question-tool';

/** The facet under the name every session facet module exports, for the host's facet table. */
export const sessionFacet = questionSessionFacet;

export default sessionFacet;
