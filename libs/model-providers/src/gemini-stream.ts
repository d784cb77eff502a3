import { ProviderError, type JsonObject, type ProviderEvent, type Usage } from '@pi/agent';
import { z } from 'zod';
import { parseEventJson, type StreamAccumulator } from './event-stream';

// One `data:` chunk of streamGenerateContent with alt=sse, only the fields read here:
// { candidates: [{ content: { parts: [{ text, thought?, thoughtSignature? } | { functionCall: { name, args },
//   thoughtSignature? }] }, finishReason? }],
//   usageMetadata?: { promptTokenCount, candidatesTokenCount, cachedContentTokenCount, thoughtsTokenCount } }
// or { error: { code, message, status } } when the server fails after the stream started.
const count = z.number().int().nonnegative().nullish();

const partSchema = z.object({
  text: z.string().nullish(),
  thought: z.boolean().nullish(),
  thoughtSignature: z.string().nullish(),
  functionCall: z.object({ name: z.string().min(1), args: z.record(z.string(), z.json()).nullish() }).nullish(),
});

const chunkSchema = z.object({
  candidates: z
    .array(
      z.object({
        content: z.object({ parts: z.array(partSchema).nullish() }).nullish(),
        finishReason: z.string().nullish(),
      }),
    )
    .nullish(),
  usageMetadata: z
    .object({
      promptTokenCount: count,
      candidatesTokenCount: count,
      cachedContentTokenCount: count,
      thoughtsTokenCount: count,
    })
    .nullish(),
  error: z.object({ message: z.string().optional(), status: z.string().optional() }).nullish(),
});

/**
 * Turns Gemini's stream into ProviderEvents: text deltas; thought summaries as reasoning (unsigned, so never sent
 * back); each function call whole, with an id pi makes (Gemini's calls have none) and its thought signature (which
 * Gemini wants back with the call: Gemini 3 refuses a call without it); then, when the body ends after a
 * finish reason, the last usage reported and `done`. Gemini sends no end marker: the end of the body is the end.
 */
export class GeminiStreamAccumulator implements StreamAccumulator {
  #usage: Usage | null = null;
  #finishReason: string | null = null;
  #calls = 0;
  #thought = '';

  constructor(private readonly callIdBase: number) {}

  get finished(): boolean {
    return false;
  }

  accept(data: string): ProviderEvent[] {
    const parsed = chunkSchema.safeParse(parseEventJson(data));
    if (!parsed.success)
      throw new ProviderError('malformed', `unexpected stream chunk: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
    const { candidates, usageMetadata, error } = parsed.data;
    if (error) {
      throw new ProviderError(
        'http_status',
        `the server reported an error mid-stream (${error.status ?? 'error'}): ${error.message ?? 'no message'}`,
      );
    }
    const events: ProviderEvent[] = [];
    const [candidate] = candidates ?? [];
    for (const part of candidate?.content?.parts ?? []) {
      if (part.functionCall) {
        events.push(...this.#flushThought());
        this.#calls += 1;
        events.push({
          type: 'tool_call',
          id: `gemini_call_${this.callIdBase + this.#calls}`,
          name: part.functionCall.name,
          arguments: (part.functionCall.args ?? {}) as JsonObject,
          ...(part.thoughtSignature ? { signature: part.thoughtSignature } : {}),
        });
      } else if (part.thought === true) {
        this.#thought += part.text ?? '';
      } else if (part.text) {
        events.push(...this.#flushThought(), { type: 'text_delta', delta: part.text });
      }
    }
    if (candidate?.finishReason) this.#finishReason = candidate.finishReason;
    if (usageMetadata) {
      const cached = usageMetadata.cachedContentTokenCount ?? 0;
      this.#usage = {
        input: Math.max(0, (usageMetadata.promptTokenCount ?? 0) - cached),
        output: (usageMetadata.candidatesTokenCount ?? 0) + (usageMetadata.thoughtsTokenCount ?? 0),
        cacheRead: cached,
        cacheWrite: 0,
      };
    }
    return events;
  }

  end(): ProviderEvent[] | null {
    if (this.#finishReason === null) return null;
    const stopReason = this.#calls > 0 ? 'tool_calls' : this.#finishReason === 'MAX_TOKENS' ? 'length' : 'stop';
    return [
      ...this.#flushThought(),
      ...(this.#usage === null ? [] : [{ type: 'usage' as const, usage: this.#usage }]),
      { type: 'done', stopReason },
    ];
  }

  #flushThought(): ProviderEvent[] {
    if (this.#thought === '') return [];
    const text = this.#thought;
    this.#thought = '';
    return [{ type: 'thinking', text }];
  }
}
