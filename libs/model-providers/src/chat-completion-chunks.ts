import { ProviderError, type ProviderEvent } from '@pi/agent';
import { schemaCheck } from '@pi/json';
import { z } from 'zod';
import { parseEventJson, type StreamAccumulator } from './event-stream';
import { toolCallArguments } from './tool-call-arguments';

// One `data:` payload of a streamed chat completion. Only the fields read here are checked; servers add others.
// { choices: [{ index, delta: { content?, tool_calls?: [{ index, id?, function: { name?, arguments? } }] },
//   finish_reason? }] }, or { error: { message } } when a server fails after the stream started.
const toolCallDeltaSchema = z.object({
  index: z.number().int().nonnegative().optional(),
  id: z.string().nullish(),
  function: z.object({ name: z.string().nullish(), arguments: z.string().nullish() }).nullish(),
});

const chunkSchema = z.object({
  choices: z
    .array(
      z.object({
        index: z.number().int().optional(),
        delta: z
          .object({ content: z.string().nullish(), tool_calls: z.array(toolCallDeltaSchema).nullish() })
          .nullish(),
        finish_reason: z.string().nullish(),
      }),
    )
    .nullish(),
  error: z.object({ message: z.string().optional() }).nullish(),
  // With `stream_options.include_usage`, a last chunk without choices carries the request's token counts.
  usage: z
    .object({
      prompt_tokens: z.number().int().nonnegative().nullish(),
      completion_tokens: z.number().int().nonnegative().nullish(),
      prompt_tokens_details: z.object({ cached_tokens: z.number().int().nonnegative().nullish() }).nullish(),
    })
    .nullish(),
});

type Chunk = z.infer<typeof chunkSchema>;

/**
 * A chunk as the schema reads it. Most are one text delta: the schema's compiled check reads them without zod's
 * parse building a copy of each (the fields read below are the same in the copy); zod parses only a chunk the check
 * refuses, for its message.
 */
function readChunk(payload: unknown): Chunk {
  if (schemaCheck(chunkSchema)(payload)) return payload as Chunk;
  const parsed = chunkSchema.safeParse(payload);
  if (parsed.success) return parsed.data;
  throw new ProviderError('malformed', `unexpected stream chunk: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
}

const NO_TOOL_CALLS: readonly z.infer<typeof toolCallDeltaSchema>[] = [];

interface PendingToolCall {
  id: string | null;
  name: string | null;
  argumentText: string;
}

/**
 * Turns the chunks of one streamed completion into ProviderEvents: text deltas as they come; tool calls
 * accumulated by index (id and name arrive first, the arguments as string fragments) and emitted whole once a
 * finish_reason ends the answer; the usage chunk's token counts; and `done` at `[DONE]` (or when the body ends after
 * a finish_reason: not every server sends `[DONE]`), so the usage chunk that follows the finish_reason is read.
 */
export class ChatCompletionAccumulator implements StreamAccumulator {
  readonly #toolCalls = new Map<number, PendingToolCall>();
  #stopReason: 'stop' | 'tool_calls' | 'length' | null = null;
  #finished = false;

  get finished(): boolean {
    return this.#finished;
  }

  /** One event's data: a chunk's JSON, or `[DONE]`. */
  accept(data: string): ProviderEvent[] {
    return data === '[DONE]' ? this.finish() : this.acceptChunk(parseEventJson(data));
  }

  acceptChunk(payload: unknown): ProviderEvent[] {
    const { choices, error, usage } = readChunk(payload);
    if (error)
      throw new ProviderError(
        'http_status',
        `the server reported an error mid-stream: ${error.message ?? 'no message'}`,
      );
    const events: ProviderEvent[] = [];
    // Only the first choice is asked for; a chunk without one (the usage chunk) carries no content.
    const choice = choices?.find((candidate) => (candidate.index ?? 0) === 0);
    const content = choice?.delta?.content;
    if (content) events.push({ type: 'text_delta', delta: content });
    const toolCalls = choice?.delta?.tool_calls ?? NO_TOOL_CALLS;
    for (let position = 0; position < toolCalls.length; position += 1) {
      const fragment = toolCalls[position] as (typeof toolCalls)[number];
      const index = fragment.index ?? position;
      const pending = this.#toolCalls.get(index) ?? { id: null, name: null, argumentText: '' };
      if (fragment.id) pending.id = fragment.id;
      if (fragment.function?.name) pending.name = fragment.function.name;
      pending.argumentText += fragment.function?.arguments ?? '';
      this.#toolCalls.set(index, pending);
    }
    if (choice?.finish_reason && this.#stopReason === null) events.push(...this.#stop(choice.finish_reason));
    if (usage) {
      const cached = usage.prompt_tokens_details?.cached_tokens ?? 0;
      events.push({
        type: 'usage',
        usage: {
          input: Math.max(0, (usage.prompt_tokens ?? 0) - cached),
          output: usage.completion_tokens ?? 0,
          cacheRead: cached,
          cacheWrite: 0,
        },
      });
    }
    return events;
  }

  /** `[DONE]`: the tool calls if no finish_reason came (then the answer stops), and `done`. */
  finish(): ProviderEvent[] {
    if (this.#finished) return [];
    const events = this.#stopReason === null ? this.#stop('stop') : [];
    this.#finished = true;
    events.push({ type: 'done', stopReason: this.#stopReason ?? 'stop' });
    return events;
  }

  /** The body ended: complete when a finish_reason came, else null (the stream broke off). */
  end(): ProviderEvent[] | null {
    return this.#stopReason === null ? null : this.finish();
  }

  #stop(finishReason: string): ProviderEvent[] {
    const calls = [...this.#toolCalls.entries()]
      .sort(([left], [right]) => left - right)
      .map(([index, call]) => completeToolCall(index, call));
    this.#stopReason = calls.length > 0 ? 'tool_calls' : finishReason === 'length' ? 'length' : 'stop';
    return calls;
  }
}

function completeToolCall(index: number, call: PendingToolCall): ProviderEvent {
  if (call.name === null) throw new ProviderError('malformed', `tool call #${index} has no function name`);
  // Some servers send "" for a call without arguments.
  const args = toolCallArguments(call.argumentText, call.name);
  return { type: 'tool_call', id: call.id ?? `call_${index}`, name: call.name, arguments: args };
}
