import type { ProviderEvent } from '@pi/agent';
import { describe, expect, it } from 'vitest';
import { AnthropicStreamAccumulator } from './anthropic-stream';
import { SseDecoder } from './sse-decoder';
import { anthropicAnswerEvents, anthropicEvent } from './testing/anthropic-wire';

function decode(events: readonly string[]): ProviderEvent[] {
  const accumulator = new AnthropicStreamAccumulator();
  const sse = new SseDecoder();
  return [...events.flatMap((event) => sse.push(event)), ...sse.finish()].flatMap((data) => accumulator.accept(data));
}

describe('AnthropicStreamAccumulator', () => {
  it('streams text, and ends with the usage and done at message_stop', () => {
    expect(
      decode(anthropicAnswerEvents({ text: 'Hello there', usage: { input: 12, output: 3, cacheRead: 900 } })),
    ).toEqual([
      { type: 'text_delta', delta: 'Hell' },
      { type: 'text_delta', delta: 'o th' },
      { type: 'text_delta', delta: 'ere' },
      { type: 'usage', usage: { input: 12, output: 3, cacheRead: 900, cacheWrite: 0 } },
      { type: 'done', stopReason: 'stop' },
    ]);
  });

  it('gives reasoning whole with its signature, and tool calls whole from input JSON sent in pieces', () => {
    const events = decode(
      anthropicAnswerEvents({
        thinking: { text: 'The user wants a file read.', signature: 'sig==' },
        toolCalls: [
          { id: 'toolu_1', name: 'read', input: { path: 'src/a.ts', offset: 10 } },
          { id: 'toolu_2', name: 'ls', input: {} },
        ],
      }),
    );
    expect(events.filter((event) => event.type !== 'usage')).toEqual([
      { type: 'thinking', text: 'The user wants a file read.', signature: 'sig==' },
      { type: 'tool_call', id: 'toolu_1', name: 'read', arguments: { path: 'src/a.ts', offset: 10 } },
      { type: 'tool_call', id: 'toolu_2', name: 'ls', arguments: {} },
      { type: 'done', stopReason: 'tool_calls' },
    ]);
  });

  it.each([
    ['end_turn', 'stop'],
    ['stop_sequence', 'stop'],
    ['max_tokens', 'length'],
    ['refusal', 'stop'],
  ] as const)('maps stop_reason %s to %s', (stopReason, mapped) => {
    expect(decode(anthropicAnswerEvents({ text: 'x', stopReason })).at(-1)).toEqual({
      type: 'done',
      stopReason: mapped,
    });
  });

  it('passes encrypted reasoning on as redacted', () => {
    const events = decode([
      anthropicEvent({
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'redacted_thinking', data: 'EnC' },
      }),
      anthropicEvent({ type: 'content_block_stop', index: 0 }),
    ]);
    expect(events).toEqual([{ type: 'thinking', text: '', signature: 'EnC', redacted: true }]);
  });

  it('fails the turn on an error event mid-stream, naming its kind and message', () => {
    expect(() =>
      decode([
        ...anthropicAnswerEvents({ text: 'partial' }).slice(0, 4),
        anthropicEvent({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }),
      ]),
    ).toThrow(
      expect.objectContaining({
        code: 'http_status',
        message: expect.stringContaining('(overloaded_error): Overloaded'),
      }),
    );
  });

  it('skips event and block types it does not know, and refuses malformed ones', () => {
    expect(
      decode([
        anthropicEvent({ type: 'future_event', anything: 1 }),
        anthropicEvent({ type: 'content_block_start', index: 0, content_block: { type: 'server_tool_use', id: 's' } }),
        anthropicEvent({
          type: 'content_block_delta',
          index: 0,
          delta: { type: 'input_json_delta', partial_json: '{' },
        }),
        anthropicEvent({ type: 'content_block_stop', index: 0 }),
      ]),
    ).toEqual([]);
    expect(() => decode([anthropicEvent({ type: 'content_block_stop', index: 'x' })])).toThrow(
      expect.objectContaining({ code: 'malformed' }),
    );
    expect(() =>
      decode([anthropicEvent({ type: 'content_block_delta', index: 3, delta: { type: 'text_delta', text: 'x' } })]),
    ).toThrow(expect.objectContaining({ code: 'malformed', message: expect.stringContaining('never started') }));
    expect(() =>
      decode([
        anthropicEvent({
          type: 'content_block_start',
          index: 0,
          content_block: { type: 'tool_use', id: 't', name: 'read' },
        }),
        anthropicEvent({
          type: 'content_block_delta',
          index: 0,
          delta: { type: 'input_json_delta', partial_json: '{"pa' },
        }),
        anthropicEvent({ type: 'content_block_stop', index: 0 }),
      ]),
    ).toThrow(
      expect.objectContaining({
        code: 'malformed',
        message: expect.stringContaining('tool call read are not valid JSON'),
      }),
    );
  });

  it('is incomplete without message_stop', () => {
    const accumulator = new AnthropicStreamAccumulator();
    expect(accumulator.end()).toBeNull();
  });
});
