import type { ProviderEvent } from '@pi/agent';
import { describe, expect, it } from 'vitest';
import { GeminiStreamAccumulator } from './gemini-stream';

const chunk = (parts: object[], extra: object = {}) =>
  JSON.stringify({ candidates: [{ content: { role: 'model', parts } }], ...extra });

function decode(chunks: readonly string[], callIdBase = 0): ProviderEvent[] | null {
  const accumulator = new GeminiStreamAccumulator(callIdBase);
  const events = chunks.flatMap((data) => accumulator.accept(data));
  const end = accumulator.end();
  return end === null ? null : [...events, ...end];
}

describe('GeminiStreamAccumulator', () => {
  it('streams text, and at the end of the body gives the last usage and done', () => {
    expect(
      decode([
        chunk([{ text: 'Hel' }]),
        JSON.stringify({
          candidates: [{ content: { parts: [{ text: 'lo' }] }, finishReason: 'STOP' }],
          usageMetadata: {
            promptTokenCount: 120,
            candidatesTokenCount: 4,
            cachedContentTokenCount: 100,
            thoughtsTokenCount: 6,
          },
        }),
      ]),
    ).toEqual([
      { type: 'text_delta', delta: 'Hel' },
      { type: 'text_delta', delta: 'lo' },
      { type: 'usage', usage: { input: 20, output: 10, cacheRead: 100, cacheWrite: 0 } },
      { type: 'done', stopReason: 'stop' },
    ]);
  });

  it('gives thoughts as reasoning before what follows them, and function calls whole with ids pi numbers on', () => {
    expect(
      decode(
        [
          chunk([{ text: 'I should ', thought: true }]),
          chunk([{ text: 'list first.', thought: true }]),
          JSON.stringify({
            candidates: [
              {
                content: {
                  parts: [
                    { functionCall: { name: 'ls', args: {} } },
                    { functionCall: { name: 'read', args: { path: 'a' } } },
                  ],
                },
                finishReason: 'STOP',
              },
            ],
          }),
        ],
        2,
      ),
    ).toEqual([
      { type: 'thinking', text: 'I should list first.' },
      { type: 'tool_call', id: 'gemini_call_3', name: 'ls', arguments: {} },
      { type: 'tool_call', id: 'gemini_call_4', name: 'read', arguments: { path: 'a' } },
      { type: 'done', stopReason: 'tool_calls' },
    ]);
  });

  it("keeps a function call's thought signature with the call", () => {
    const events = decode([
      chunk([{ functionCall: { name: 'ls', args: {} }, thoughtSignature: 'c2lnLTE=' }]),
      chunk([{ functionCall: { name: 'read', args: { path: 'a' } } }]),
      JSON.stringify({ candidates: [{ content: { parts: [] }, finishReason: 'STOP' }] }),
    ]);
    expect(events?.filter((event) => event.type === 'tool_call')).toEqual([
      { type: 'tool_call', id: 'gemini_call_1', name: 'ls', arguments: {}, signature: 'c2lnLTE=' },
      { type: 'tool_call', id: 'gemini_call_2', name: 'read', arguments: { path: 'a' } },
    ]);
  });

  it('maps MAX_TOKENS to length, and is incomplete when the body ends before a finish reason', () => {
    expect(
      decode([
        JSON.stringify({ candidates: [{ content: { parts: [{ text: 'x' }] }, finishReason: 'MAX_TOKENS' }] }),
      ])?.at(-1),
    ).toEqual({
      type: 'done',
      stopReason: 'length',
    });
    expect(decode([chunk([{ text: 'cut' }])])).toBeNull();
  });

  it('fails the turn on an error chunk, naming its status, and on a chunk of the wrong shape', () => {
    expect(() =>
      decode([JSON.stringify({ error: { code: 503, message: 'The model is overloaded.', status: 'UNAVAILABLE' } })]),
    ).toThrow(
      expect.objectContaining({
        code: 'http_status',
        message: expect.stringContaining('(UNAVAILABLE): The model is overloaded.'),
      }),
    );
    expect(() => decode([JSON.stringify({ candidates: 'nope' })])).toThrow(
      expect.objectContaining({ code: 'malformed' }),
    );
  });
});
