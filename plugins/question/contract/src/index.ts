export { QUESTION_PLUGIN_ID } from './plugin-id';
export {
  MAX_CUSTOM_ANSWER_LENGTH,
  QUESTION_TOOL_NAME,
  QuestionView,
  questionDetailsSchema,
  questionOptionSchema,
  questionRequestSchema,
  questionResponseSchema,
  type QuestionDetails,
  type QuestionOption,
  type QuestionRequest,
  type QuestionResponse,
} from './question';
