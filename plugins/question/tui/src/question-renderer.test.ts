import { describe, expect, it } from 'vitest';
import type { JsonValue, TuiTheme } from '@pi/plugin-api';
import type { QuestionDetails } from '@pi/question';
import { questionRenderer } from './question-renderer';

/** A theme that shows its colours as tags, so a test can read what was styled how. */
const tags: TuiTheme = { fg: (color, text) => `<${color}>${text}</${color}>`, bold: (text) => `<b>${text}</b>` };

const details = (patch: Partial<QuestionDetails>): JsonValue => ({
  question: 'Which colour?',
  options: ['red', 'green', 'blue'],
  answer: 'green',
  wasCustom: false,
  ...patch,
});

const result = (text: string, detailsValue: JsonValue, isError = false, width = 200) =>
  questionRenderer.renderResult?.({ text, details: detailsValue, isError }, tags, { expanded: false }).render(width);

describe('the question tool renderer', () => {
  it('shows a call as its question and numbered options', () => {
    const call = questionRenderer.renderCall?.(
      {
        question: 'Which colour?',
        options: [
          { label: 'red', description: null },
          { label: 'green', description: 'calm' },
        ],
      },
      tags,
    );
    expect(call?.render(80)).toEqual([
      '<toolTitle><b>question </b></toolTitle><muted>Which colour?</muted>',
      '<dim>  Options: 1. red, 2. green</dim>',
    ]);
  });

  it('shows a call whose arguments are malformed without failing', () => {
    expect(questionRenderer.renderCall?.({ question: 3, options: [7] }, tags).render(80)).toEqual([
      '<toolTitle><b>question </b></toolTitle><muted></muted>',
      '<dim>  Options: 1. ?</dim>',
    ]);
  });

  it('marks a chosen answer, a typed one, a cancelled one, and one nobody gave', () => {
    expect(result('User selected: 2. green', details({}))).toEqual(['<success>✓ </success><accent>green</accent>']);
    expect(result('User wrote: teal', details({ answer: 'teal', wasCustom: true }))).toEqual([
      '<success>✓ </success><muted>(wrote) </muted><accent>teal</accent>',
    ]);
    expect(result('User cancelled the question', details({ answer: null }))).toEqual(['<warning>Cancelled</warning>']);
    expect(
      result(
        'The question was not answered: the user did not answer in time (timeout)',
        details({ answer: null }),
        true,
      ),
    ).toEqual(['<error>The question was not answered: the user did not answer in time (timeout)</error>']);
  });

  it('falls back to the result text when the details are not a question’s', () => {
    expect(result('something else', { unexpected: true })).toEqual(['something else']);
  });

  it('wraps a long answer to the width', () => {
    const lines = result('User wrote: …', details({ answer: 'word '.repeat(30).trim(), wasCustom: true }), false, 80);
    expect(lines?.length).toBeGreaterThan(1);
  });
});
