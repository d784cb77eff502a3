import { ProviderError, type ProviderEvent, type Usage } from '@pi/agent';
import { z } from 'zod';
import { parseEventJson, type StreamAccumulator } from './event-stream';
import { toolCallArguments } from './tool-call-arguments';

// The Messages API's stream events, only the fields read here (the API adds others):
// message_start { message: { usage } }, content_block_start { index, content_block }, content_block_delta
// { index, delta }, content_block_stop { index }, message_delta { delta: { stop_reason }, usage }, message_stop,
// ping, error { error: { type, message } }.
const usageSchema = z.object({
  input_tokens: z.number().int().nonnegative().nullish(),
  output_tokens: z.number().int().nonnegative().nullish(),
  cache_read_input_tokens: z.number().int().nonnegative().nullish(),
  cache_creation_input_tokens: z.number().int().nonnegative().nullish(),
});

const blockSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string().optional() }),
  z.object({ type: z.literal('thinking'), thinking: z.string().optional(), signature: z.string().optional() }),
  z.object({ type: z.literal('redacted_thinking'), data: z.string() }),
  z.object({ type: z.literal('tool_use'), id: z.string().min(1), name: z.string().min(1) }),
]);

const deltaSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text_delta'), text: z.string() }),
  z.object({ type: z.literal('input_json_delta'), partial_json: z.string() }),
  z.object({ type: z.literal('thinking_delta'), thinking: z.string() }),
  z.object({ type: z.literal('signature_delta'), signature: z.string() }),
]);

const index = z.number().int().nonnegative();

const eventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('message_start'), message: z.object({ usage: usageSchema.nullish() }) }),
  z.object({ type: z.literal('content_block_start'), index, content_block: z.object({ type: z.string() }).loose() }),
  z.object({ type: z.literal('content_block_delta'), index, delta: z.object({ type: z.string() }).loose() }),
  z.object({ type: z.literal('content_block_stop'), index }),
  z.object({
    type: z.literal('message_delta'),
    delta: z.object({ stop_reason: z.string().nullish() }).nullish(),
    usage: usageSchema.nullish(),
  }),
  z.object({ type: z.literal('message_stop') }),
  z.object({ type: z.literal('ping') }),
  z.object({
    type: z.literal('error'),
    error: z.object({ type: z.string().optional(), message: z.string().optional() }).nullish(),
  }),
]);

type OpenBlock =
  | { kind: 'text' }
  | { kind: 'thinking'; text: string; signature: string | undefined }
  | { kind: 'redacted'; data: string }
  | { kind: 'tool'; id: string; name: string; json: string }
  /** A block type this version does not know (server tools, citations…): read past, not sent on. */
  | { kind: 'other' };

/**
 * Turns the Messages API's stream into ProviderEvents: text deltas as they come; reasoning and tool calls whole
 * when their block stops (a tool's input arrives as JSON in pieces); the usage at `message_stop`, then `done`.
 * An `error` event fails the turn, overloaded included, with the server's own words.
 */
export class AnthropicStreamAccumulator implements StreamAccumulator {
  readonly #blocks = new Map<number, OpenBlock>();
  readonly #usage: Usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
  #stopReason: string | null = null;
  #toolCalls = 0;
  #finished = false;

  get finished(): boolean {
    return this.#finished;
  }

  accept(data: string): ProviderEvent[] {
    const parsed = eventSchema.safeParse(parseEventJson(data));
    // Event types added to the API later are skipped, as its versioning policy asks clients to.
    if (!parsed.success) return this.#unknownOrMalformed(data, parsed.error);
    const event = parsed.data;
    switch (event.type) {
      case 'message_start':
        this.#addUsage(event.message.usage);
        return [];
      case 'content_block_start':
        return this.#start(event.index, event.content_block);
      case 'content_block_delta':
        return this.#delta(event.index, event.delta);
      case 'content_block_stop':
        return this.#stop(event.index);
      case 'message_delta':
        if (event.delta?.stop_reason) this.#stopReason = event.delta.stop_reason;
        this.#addUsage(event.usage);
        return [];
      case 'message_stop':
        this.#finished = true;
        return [
          { type: 'usage', usage: { ...this.#usage } },
          { type: 'done', stopReason: this.#mappedStop() },
        ];
      case 'ping':
        return [];
      case 'error': {
        const kind = event.error?.type ?? 'error';
        throw new ProviderError(
          'http_status',
          `the server reported an error mid-stream (${kind}): ${event.error?.message ?? 'no message'}`,
        );
      }
    }
  }

  /** Without `message_stop` the answer is incomplete. */
  end(): ProviderEvent[] | null {
    return null;
  }

  #start(at: number, raw: unknown): ProviderEvent[] {
    const block = blockSchema.safeParse(raw);
    if (!block.success) {
      this.#blocks.set(at, { kind: 'other' });
      return [];
    }
    const value = block.data;
    switch (value.type) {
      case 'text':
        this.#blocks.set(at, { kind: 'text' });
        return value.text ? [{ type: 'text_delta', delta: value.text }] : [];
      case 'thinking':
        this.#blocks.set(at, { kind: 'thinking', text: value.thinking ?? '', signature: value.signature });
        return [];
      case 'redacted_thinking':
        this.#blocks.set(at, { kind: 'redacted', data: value.data });
        return [];
      case 'tool_use':
        this.#blocks.set(at, { kind: 'tool', id: value.id, name: value.name, json: '' });
        return [];
    }
  }

  #delta(at: number, raw: unknown): ProviderEvent[] {
    const block = this.#blocks.get(at);
    if (block === undefined)
      throw new ProviderError('malformed', `a delta for content block ${at}, which never started`);
    const delta = deltaSchema.safeParse(raw);
    if (!delta.success || block.kind === 'other') return [];
    const value = delta.data;
    if (value.type === 'text_delta' && block.kind === 'text')
      return value.text ? [{ type: 'text_delta', delta: value.text }] : [];
    if (value.type === 'input_json_delta' && block.kind === 'tool') block.json += value.partial_json;
    else if (value.type === 'thinking_delta' && block.kind === 'thinking') block.text += value.thinking;
    else if (value.type === 'signature_delta' && block.kind === 'thinking') block.signature = value.signature;
    else throw new ProviderError('malformed', `a ${value.type} for a ${block.kind} block`);
    return [];
  }

  #stop(at: number): ProviderEvent[] {
    const block = this.#blocks.get(at);
    if (block === undefined) throw new ProviderError('malformed', `content block ${at} stopped without starting`);
    this.#blocks.delete(at);
    switch (block.kind) {
      case 'text':
      case 'other':
        return [];
      case 'thinking':
        return [
          {
            type: 'thinking',
            text: block.text,
            ...(block.signature === undefined ? {} : { signature: block.signature }),
          },
        ];
      case 'redacted':
        return [{ type: 'thinking', text: '', signature: block.data, redacted: true }];
      case 'tool':
        this.#toolCalls += 1;
        return [
          { type: 'tool_call', id: block.id, name: block.name, arguments: toolCallArguments(block.json, block.name) },
        ];
    }
  }

  #addUsage(usage: z.infer<typeof usageSchema> | null | undefined): void {
    if (!usage) return;
    // message_start carries the prompt's counts; message_delta the answer's, cumulative.
    if (usage.input_tokens != null) this.#usage.input = usage.input_tokens;
    if (usage.cache_read_input_tokens != null) this.#usage.cacheRead = usage.cache_read_input_tokens;
    if (usage.cache_creation_input_tokens != null) this.#usage.cacheWrite = usage.cache_creation_input_tokens;
    if (usage.output_tokens != null) this.#usage.output = usage.output_tokens;
  }

  #mappedStop(): 'stop' | 'tool_calls' | 'length' {
    if (this.#toolCalls > 0 || this.#stopReason === 'tool_use') return 'tool_calls';
    return this.#stopReason === 'max_tokens' || this.#stopReason === 'model_context_window_exceeded'
      ? 'length'
      : 'stop';
  }

  #unknownOrMalformed(data: string, error: z.ZodError): ProviderEvent[] {
    const type = (parseEventJson(data) as { type?: unknown } | null)?.type;
    const known = eventSchema.options.some((option) => option.shape.type.value === type);
    if (typeof type === 'string' && !known) return [];
    throw new ProviderError('malformed', `unexpected stream event: ${error.issues[0]?.message ?? 'invalid'}`);
  }
}
