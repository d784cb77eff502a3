import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { QUESTION_PLUGIN_ID } from './plugin-id';
import { QuestionView, questionRequestSchema } from './question';

describe('question contract', () => {
  it('is a plugin whose package metadata names its session facet and its TUI facet', () => {
    expect(JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).name).toBe(QUESTION_PLUGIN_ID);
    const metadata = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).pi;
    expect(metadata).toEqual({
      apiVersion: '2.0',
      description: expect.any(String),
      facets: { session: '@pi/question-session', tui: '@pi/question-tui' },
    });
  });

  it('is the view component presentations contribute a component for', () => {
    expect(QuestionView.component).toBe('question');
  });

  it('accepts the three outcomes and nothing else', () => {
    const parse = (value: unknown) => QuestionView.message.safeParse(value).success;
    expect(parse({ outcome: 'selected', index: 1 })).toBe(true);
    expect(parse({ outcome: 'custom', answer: 'teal' })).toBe(true);
    expect(parse({ outcome: 'cancelled' })).toBe(true);
    expect(parse({ outcome: 'selected', index: -1 })).toBe(false);
    expect(parse({ outcome: 'selected', index: 0.5 })).toBe(false);
    expect(parse({ outcome: 'custom', answer: '' })).toBe(false);
    expect(parse({ outcome: 'maybe' })).toBe(false);
  });

  it('requires an explicit null description, as strict JSON state does', () => {
    expect(
      questionRequestSchema.safeParse({ question: 'Color?', options: [{ label: 'red', description: null }] }).success,
    ).toBe(true);
    expect(questionRequestSchema.safeParse({ question: 'Color?', options: [{ label: 'red' }] }).success).toBe(false);
  });
});
