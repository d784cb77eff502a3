import type { QuestionRequest } from '@pi/question';
import { printable } from './printable';

/** The last row of every question: it opens a line to type an answer of one's own. */
export const TYPE_SOMETHING = 'Type something…';

/**
 * The dialog's rows: `1. label — description` per option, numbered so every row is distinct (two options
 * with one label stay two rows) and a number always means the same option, then "Type something…".
 */
export function questionChoices(request: QuestionRequest): string[] {
  return [
    ...request.options.map((option, index) => {
      const description = option.description === null ? '' : printable(option.description).trim();
      return `${index + 1}. ${printable(option.label)}${description === '' ? '' : ` — ${description}`}`;
    }),
    TYPE_SOMETHING,
  ];
}
