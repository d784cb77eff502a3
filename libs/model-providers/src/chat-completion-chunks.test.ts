import { describe, expect, it } from 'vitest';
import { ChatCompletionAccumulator } from './chat-completion-chunks';

function delta(value: object, finishReason: string | null = null): object {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    choices: [{ index: 0, delta: value, finish_reason: finishReason }],
  };
}

describe('ChatCompletionAccumulator', () => {
  it('emits content as text deltas and, at [DONE], done with the mapped finish reason', () => {
    const accumulator = new ChatCompletionAccumulator();
    expect(accumulator.acceptChunk(delta({ role: 'assistant', content: '' }))).toEqual([]);
    expect(accumulator.acceptChunk(delta({ content: 'Hi' }))).toEqual([{ type: 'text_delta', delta: 'Hi' }]);
    expect(accumulator.acceptChunk(delta({}, 'length'))).toEqual([]);
    expect(accumulator.accept('[DONE]')).toEqual([{ type: 'done', stopReason: 'length' }]);
    expect(accumulator.finished).toBe(true);
  });

  it('accumulates tool calls streamed in fragments by index and emits them whole at the finish reason', () => {
    const accumulator = new ChatCompletionAccumulator();
    const fragments = [
      delta({ tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'read', arguments: '' } }] }),
      delta({ tool_calls: [{ index: 0, function: { arguments: '{"pa' } }] }),
      delta({ tool_calls: [{ index: 1, id: 'call_b', type: 'function', function: { name: 'ls', arguments: '{}' } }] }),
      delta({ tool_calls: [{ index: 0, function: { arguments: 'th":"a.txt"}' } }] }),
    ];
    for (const fragment of fragments) expect(accumulator.acceptChunk(fragment)).toEqual([]);
    expect(accumulator.acceptChunk(delta({}, 'tool_calls'))).toEqual([
      { type: 'tool_call', id: 'call_a', name: 'read', arguments: { path: 'a.txt' } },
      { type: 'tool_call', id: 'call_b', name: 'ls', arguments: {} },
    ]);
    expect(accumulator.finish()).toEqual([{ type: 'done', stopReason: 'tool_calls' }]);
  });

  it('reports tool calls as the stop reason even when a server says stop', () => {
    const accumulator = new ChatCompletionAccumulator();
    accumulator.acceptChunk(delta({ tool_calls: [{ index: 0, id: 'c', function: { name: 'ls', arguments: '' } }] }));
    expect(accumulator.finish()).toEqual([
      { type: 'tool_call', id: 'c', name: 'ls', arguments: {} },
      { type: 'done', stopReason: 'tool_calls' },
    ]);
  });

  it('rejects unparsable tool arguments with malformed', () => {
    const accumulator = new ChatCompletionAccumulator();
    accumulator.acceptChunk(
      delta({ tool_calls: [{ index: 0, id: 'c', function: { name: 'read', arguments: '{"path":' } }] }),
    );
    expect(() => accumulator.acceptChunk(delta({}, 'tool_calls'))).toThrow(
      expect.objectContaining({ code: 'malformed' }),
    );
  });

  it('rejects chunks of the wrong shape with malformed and in-stream errors with http_status', () => {
    expect(() => new ChatCompletionAccumulator().acceptChunk({ choices: 'nope' })).toThrow(
      expect.objectContaining({ code: 'malformed' }),
    );
    expect(() => new ChatCompletionAccumulator().acceptChunk({ error: { message: 'overloaded' } })).toThrow(
      expect.objectContaining({ code: 'http_status', message: expect.stringContaining('overloaded') }),
    );
  });

  it("reads a text chunk with the fields servers add, and says which field of a broken one is wrong, as zod's parse did", () => {
    const accumulator = new ChatCompletionAccumulator();
    const added = { ...delta({ content: 'Hi', refusal: null }), model: 'm', system_fingerprint: 'fp', logprobs: null };
    expect(accumulator.acceptChunk(added)).toEqual([{ type: 'text_delta', delta: 'Hi' }]);
    expect(() => accumulator.acceptChunk(delta({ content: 7 }))).toThrow(
      expect.objectContaining({
        code: 'malformed',
        message: 'unexpected stream chunk: Invalid input: expected string, received number',
      }),
    );
    expect(() => accumulator.acceptChunk({ choices: [{ index: 0.5, delta: {} }] })).toThrow(
      expect.objectContaining({ code: 'malformed', message: expect.stringContaining('expected int') }),
    );
  });

  it('reads the usage chunk after the finish reason, cached prompt tokens apart, and ends at [DONE]', () => {
    const accumulator = new ChatCompletionAccumulator();
    expect(accumulator.acceptChunk(delta({ content: 'Hi' }, 'stop'))).toEqual([{ type: 'text_delta', delta: 'Hi' }]);
    expect(accumulator.finished).toBe(false);
    const usage = { prompt_tokens: 100, completion_tokens: 7, prompt_tokens_details: { cached_tokens: 60 } };
    expect(accumulator.acceptChunk({ choices: [], usage })).toEqual([
      { type: 'usage', usage: { input: 40, output: 7, cacheRead: 60, cacheWrite: 0 } },
    ]);
    expect(accumulator.accept('[DONE]')).toEqual([{ type: 'done', stopReason: 'stop' }]);
  });

  it('ends with the body after a finish reason, and not before one', () => {
    const ended = new ChatCompletionAccumulator();
    ended.acceptChunk(delta({ content: 'Hi' }, 'length'));
    expect(ended.end()).toEqual([{ type: 'done', stopReason: 'length' }]);
    const cut = new ChatCompletionAccumulator();
    cut.acceptChunk(delta({ content: 'Hi' }));
    expect(cut.end()).toBeNull();
  });
});
