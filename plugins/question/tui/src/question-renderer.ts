import type { JsonObject, ToolRenderer, TuiComponent, TuiTheme } from '@pi/plugin-api';
import { questionDetailsSchema } from '@pi/question';
import { wrapText } from '@pi/terminal';
import { printable } from './printable';

/** Lines of styled text, word-wrapped to the width they are drawn at. */
function textBlock(lines: readonly string[]): TuiComponent {
  return { render: (width) => lines.flatMap((line) => wrapText(line, width)) };
}

/** The question and options a call asked with, read leniently: the arguments are the model's. */
function callArguments(args: JsonObject): { question: string; options: string[] } {
  const question = typeof args.question === 'string' ? args.question : '';
  const options = Array.isArray(args.options) ? args.options : [];
  const labels = options.map((option) =>
    typeof option === 'object' && option !== null && !Array.isArray(option) && typeof option.label === 'string'
      ? option.label
      : '?',
  );
  return { question, options: labels };
}

function numbered(labels: readonly string[]): string {
  return labels.map((label, index) => `${index + 1}. ${printable(label)}`).join(', ');
}

/**
 * How a `question` call shows in the transcript: the question and its options while it runs, then the answer
 * (`✓ answer`, `✓ (wrote) answer` for a typed one), `Cancelled`, or why nobody answered.
 */
export const questionRenderer: ToolRenderer = {
  renderCall(args, theme) {
    const { question, options } = callArguments(args);
    const title = theme.fg('toolTitle', theme.bold('question ')) + theme.fg('muted', printable(question));
    return textBlock(options.length === 0 ? [title] : [title, theme.fg('dim', `  Options: ${numbered(options)}`)]);
  },
  renderResult(result, theme) {
    return textBlock([resultLine(result, theme)]);
  },
};

function resultLine(result: { text: string; details: unknown; isError: boolean }, theme: TuiTheme): string {
  // A failed question (no handler, timeout, disconnect…) says why in its text.
  if (result.isError) return theme.fg('error', printable(result.text));
  const details = questionDetailsSchema.safeParse(result.details);
  if (!details.success) return printable(result.text);
  const { answer, wasCustom, options } = details.data;
  if (answer === null) return theme.fg('warning', options.length === 0 ? 'No options were offered' : 'Cancelled');
  const prefix = wasCustom ? theme.fg('muted', '(wrote) ') : '';
  return theme.fg('success', '✓ ') + prefix + theme.fg('accent', printable(answer));
}
