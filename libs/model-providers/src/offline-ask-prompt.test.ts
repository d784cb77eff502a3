import { describe, expect, it } from 'vitest';
import { parseAskPrompt } from './offline-ask-prompt';

describe('parseAskPrompt', () => {
  it('turns "ask me …: a, b or c" into a question with its options', () => {
    expect(parseAskPrompt('ask me which color I like: red, green or blue')).toEqual({
      question: 'Which color I like?',
      options: ['red', 'green', 'blue'],
    });
  });

  it('finds the request anywhere in the prompt and tolerates an Oxford comma, quotes and final punctuation', () => {
    expect(parseAskPrompt('Please ask me what to eat: "pizza", pasta, or soup.')).toEqual({
      question: 'What to eat?',
      options: ['pizza', 'pasta', 'soup'],
    });
  });

  it('asks an open question when no options follow a colon', () => {
    expect(parseAskPrompt('Ask me for my name?')).toEqual({ question: 'For my name?', options: [] });
  });

  it('returns null for prompts that do not ask to be asked, or ask nothing', () => {
    expect(parseAskPrompt('tell me a joke')).toBeNull();
    expect(parseAskPrompt('mask mean')).toBeNull();
    expect(parseAskPrompt('ask me')).toBeNull();
    expect(parseAskPrompt('ask me: a or b')).toBeNull();
  });
});
