import { ProviderError, type JsonObject, type ProviderEvent } from '@pi/agent';
import { z } from 'zod';

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
});

interface PendingToolCall {
  id: string | null;
  name: string | null;
  argumentText: string;
}

/**
 * Turns the chunks of one streamed completion into ProviderEvents: text deltas as they come; tool calls
 * accumulated by index (id and name arrive first, the arguments as string fragments) and emitted whole, with
 * `done`, once a finish_reason (or `[DONE]`) ends the turn.
 */
export class ChatCompletionAccumulator {
  readonly #toolCalls = new Map<number, PendingToolCall>();
  #finished = false;

  get finished(): boolean {
    return this.#finished;
  }

  accept(payload: unknown): ProviderEvent[] {
    const parsed = chunkSchema.safeParse(payload);
    if (!parsed.success)
      throw new ProviderError('malformed', `unexpected stream chunk: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
    const { choices, error } = parsed.data;
    if (error)
      throw new ProviderError(
        'http_status',
        `the server reported an error mid-stream: ${error.message ?? 'no message'}`,
      );
    // Only the first choice is asked for; chunks without one (e.g. a trailing usage chunk) carry no events.
    const choice = choices?.find((candidate) => (candidate.index ?? 0) === 0);
    if (choice === undefined) return [];
    const events: ProviderEvent[] = [];
    const content = choice.delta?.content;
    if (content) events.push({ type: 'text_delta', delta: content });
    for (const [position, fragment] of (choice.delta?.tool_calls ?? []).entries()) {
      const index = fragment.index ?? position;
      const pending = this.#toolCalls.get(index) ?? { id: null, name: null, argumentText: '' };
      if (fragment.id) pending.id = fragment.id;
      if (fragment.function?.name) pending.name = fragment.function.name;
      pending.argumentText += fragment.function?.arguments ?? '';
      this.#toolCalls.set(index, pending);
    }
    if (choice.finish_reason) events.push(...this.finish(choice.finish_reason));
    return events;
  }

  /** Ends the turn: the complete tool calls in index order, then `done`. `[DONE]` without a finish_reason means stop. */
  finish(finishReason = 'stop'): ProviderEvent[] {
    if (this.#finished) return [];
    this.#finished = true;
    const events: ProviderEvent[] = [...this.#toolCalls.entries()]
      .sort(([left], [right]) => left - right)
      .map(([index, call]) => completeToolCall(index, call));
    const stopReason = events.length > 0 ? 'tool_calls' : finishReason === 'length' ? 'length' : 'stop';
    events.push({ type: 'done', stopReason });
    return events;
  }
}

function completeToolCall(index: number, call: PendingToolCall): ProviderEvent {
  if (call.name === null) throw new ProviderError('malformed', `tool call #${index} has no function name`);
  const argumentText = call.argumentText.trim();
  let parsed: unknown;
  try {
    // Some servers send "" for a call without arguments.
    parsed = argumentText === '' ? {} : JSON.parse(argumentText);
  } catch {
    throw new ProviderError('malformed', `the arguments of tool call ${call.name} are not valid JSON`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ProviderError('malformed', `the arguments of tool call ${call.name} are not a JSON object`);
  }
  // JSON.parse output is strict JSON by construction.
  return { type: 'tool_call', id: call.id ?? `call_${index}`, name: call.name, arguments: parsed as JsonObject };
}
