/** One Messages API stream event on the wire: its `event:` line names the type, as Anthropic's do. */
export function anthropicEvent(payload: { type: string } & Record<string, unknown>): string {
  return `event: ${payload.type}\ndata: ${JSON.stringify(payload)}\n\n`;
}

export interface AnthropicAnswer {
  readonly thinking?: { readonly text: string; readonly signature: string };
  readonly text?: string;
  readonly toolCalls?: ReadonlyArray<{ readonly id: string; readonly name: string; readonly input: object }>;
  readonly usage?: { input: number; output: number; cacheRead?: number; cacheWrite?: number };
  readonly stopReason?: string;
}

/**
 * A whole streamed answer in the shape Anthropic sends: message_start with the prompt's usage, a ping, each block
 * started, streamed in small deltas (a tool's input as JSON cut every few characters) and stopped, then
 * message_delta with the stop reason and output tokens, and message_stop.
 */
export function anthropicAnswerEvents(answer: AnthropicAnswer): string[] {
  const usage = answer.usage ?? { input: 10, output: 5 };
  const events = [
    anthropicEvent({
      type: 'message_start',
      message: {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        content: [],
        model: 'claude-test',
        stop_reason: null,
        usage: {
          input_tokens: usage.input,
          cache_read_input_tokens: usage.cacheRead ?? 0,
          cache_creation_input_tokens: usage.cacheWrite ?? 0,
          output_tokens: 1,
        },
      },
    }),
    anthropicEvent({ type: 'ping' }),
  ];
  let index = 0;
  const block = (start: object, deltas: object[]) => {
    events.push(anthropicEvent({ type: 'content_block_start', index, content_block: start }));
    for (const delta of deltas) events.push(anthropicEvent({ type: 'content_block_delta', index, delta }));
    events.push(anthropicEvent({ type: 'content_block_stop', index }));
    index += 1;
  };
  if (answer.thinking !== undefined) {
    block({ type: 'thinking', thinking: '', signature: '' }, [
      ...pieces(answer.thinking.text, 6).map((thinking) => ({ type: 'thinking_delta', thinking })),
      { type: 'signature_delta', signature: answer.thinking.signature },
    ]);
  }
  if (answer.text !== undefined) {
    block(
      { type: 'text', text: '' },
      pieces(answer.text, 4).map((text) => ({ type: 'text_delta', text })),
    );
  }
  for (const call of answer.toolCalls ?? []) {
    block(
      { type: 'tool_use', id: call.id, name: call.name, input: {} },
      pieces(JSON.stringify(call.input), 3).map((partial_json) => ({ type: 'input_json_delta', partial_json })),
    );
  }
  const stopReason = answer.stopReason ?? ((answer.toolCalls?.length ?? 0) > 0 ? 'tool_use' : 'end_turn');
  events.push(
    anthropicEvent({
      type: 'message_delta',
      delta: { stop_reason: stopReason, stop_sequence: null },
      usage: { output_tokens: usage.output },
    }),
    anthropicEvent({ type: 'message_stop' }),
  );
  return events;
}

function pieces(text: string, size: number): string[] {
  const result: string[] = [];
  for (let at = 0; at < text.length; at += size) result.push(text.slice(at, at + size));
  return result.length === 0 ? [''] : result;
}
