import { describe, expect, it } from 'vitest';
import { TYPE_SOMETHING, questionChoices } from './question-choices';

describe('question choices', () => {
  it('numbers the options, adds descriptions, and ends with "Type something…"', () => {
    expect(
      questionChoices({
        question: 'Which colour?',
        options: [
          { label: 'red', description: 'warm' },
          { label: 'blue', description: null },
        ],
      }),
    ).toEqual(['1. red — warm', '2. blue', TYPE_SOMETHING]);
  });

  it('keeps two options with one label apart by their numbers', () => {
    const choices = questionChoices({
      question: 'Again?',
      options: [
        { label: 'same', description: null },
        { label: 'same', description: null },
      ],
    });
    expect(new Set(choices).size).toBe(choices.length);
  });

  it('shows the model’s control characters as spaces', () => {
    expect(questionChoices({ question: 'q', options: [{ label: 'a\x1b[31mb', description: 'x\ny' }] })[0]).toBe(
      '1. a [31mb — x y',
    );
  });
});
