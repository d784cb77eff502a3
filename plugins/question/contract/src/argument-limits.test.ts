import { describe, expect, it } from 'vitest';
import { MAX_CUSTOM_ANSWER_LENGTH, questionResponseSchema } from './index';

// A presentation's answer is the one value of this contract a peer supplies; the session refuses a message that
// fails this schema (`invalid_argument`, to the client that sent it) and the question stays open for a good one.
describe('question answer limits', () => {
  it('takes a custom answer of the largest size and refuses a longer one', () => {
    const answer = (length: number) => ({ outcome: 'custom', answer: 'a'.repeat(length) });
    expect(questionResponseSchema.safeParse(answer(MAX_CUSTOM_ANSWER_LENGTH)).success).toBe(true);
    expect(questionResponseSchema.safeParse(answer(MAX_CUSTOM_ANSWER_LENGTH + 1)).success).toBe(false);
  });
});
