import { z } from 'zod';
import { defineView } from '@pi/plugin-api';

/** The JSON contract of the question tool and its view (spec: "the question plugin end-to-end"; issue 22: "open/ask"). */
export interface QuestionOption {
  label: string;
  description: string | null;
}

export interface QuestionRequest {
  question: string;
  options: QuestionOption[];
}

export type QuestionResponse =
  | { outcome: 'selected'; index: number }
  | { outcome: 'custom'; answer: string }
  | { outcome: 'cancelled' };

/**
 * The durable tool result's details, for renderers: `answer` is null when nothing was answered. A type alias
 * rather than an interface, so it is assignable where a JSON value is expected (tool details).
 */
export type QuestionDetails = {
  question: string;
  options: string[];
  answer: string | null;
  wasCustom: boolean;
};

/** The name the tool is registered under, which the model calls. */
export const QUESTION_TOOL_NAME = 'question';

export const questionOptionSchema: z.ZodType<QuestionOption> = z.object({
  label: z.string().min(1),
  description: z.string().nullable(),
});

export const questionRequestSchema: z.ZodType<QuestionRequest> = z.object({
  question: z.string().min(1),
  options: z.array(questionOptionSchema),
});

/** The longest custom answer a presentation may send back (64 Ki UTF-16 code units; it goes to the model). */
export const MAX_CUSTOM_ANSWER_LENGTH = 65_536;

export const questionResponseSchema: z.ZodType<QuestionResponse> = z.discriminatedUnion('outcome', [
  z.object({ outcome: z.literal('selected'), index: z.number().int().min(0) }),
  z.object({ outcome: z.literal('custom'), answer: z.string().min(1).max(MAX_CUSTOM_ANSWER_LENGTH) }),
  z.object({ outcome: z.literal('cancelled') }),
]);

export const questionDetailsSchema: z.ZodType<QuestionDetails> = z.object({
  question: z.string(),
  options: z.array(z.string()),
  answer: z.string().nullable(),
  wasCustom: z.boolean(),
});

/**
 * The question as a view: its state is the question, and the one message a client sends back is the answer. The
 * session checks the answer against the schema at the boundary; the first good one closes the view.
 */
export const QuestionView = defineView('question', {
  state: questionRequestSchema,
  message: questionResponseSchema,
});
