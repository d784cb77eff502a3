import { describe, expect, it } from 'vitest';
import { isContextOverflow } from './http-error-message';

const json = (message: string) => JSON.stringify({ error: { message } });
const refused = (status: number, body: string) => ({ status, body, contentType: 'application/json' });

describe('isContextOverflow', () => {
  it.each([
    ['Anthropic', json('prompt is too long: 212345 tokens > 200000 maximum')],
    [
      'OpenAI',
      JSON.stringify({
        error: { message: "This model's maximum context length is 128000 tokens.", code: 'context_length_exceeded' },
      }),
    ],
    ['Gemini', json('The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).')],
    ['a compatible server', json('Requested 40000 tokens, which exceeds the context window of 32768')],
  ])('reads %s refusing a request as too long', (_, body) => {
    expect(isContextOverflow(refused(400, body))).toBe(true);
  });

  it('is false for other refusals, and for these words under another status', () => {
    expect(isContextOverflow(refused(400, json('messages: text content blocks must be non-empty')))).toBe(false);
    expect(isContextOverflow(refused(429, json('prompt is too long')))).toBe(false);
  });
});
