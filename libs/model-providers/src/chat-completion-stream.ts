import { ProviderError, type ProviderEvent } from '@pi/agent';
import type { Context } from '@pi/context';
import { ChatCompletionAccumulator } from './chat-completion-chunks';
import { networkCause } from './network-cause';
import { abortedError, throwIfAborted } from './provider-abort';
import { SseDecoder } from './sse-decoder';
import type { StallWatch } from './stall-watch';

/**
 * Reads the SSE body of one streamed completion into ProviderEvents, until a finish_reason or `[DONE]`.
 * Each read waits on the server under `watch`, so a server that goes quiet fails the turn instead of holding it.
 */
export async function* readChatCompletionStream(
  providerName: string,
  body: ReadableStream<Uint8Array>,
  context: Context,
  watch: StallWatch,
): AsyncGenerator<ProviderEvent> {
  const reader = body.getReader();
  const text = new TextDecoder();
  const sse = new SseDecoder();
  const accumulator = new ChatCompletionAccumulator();
  const release = (): Promise<void> => reader.cancel().catch(() => undefined);
  try {
    for (;;) {
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await watch.during(reader.read());
      } catch (thrown) {
        if (context.abortSignal?.aborted === true) throw abortedError();
        if (watch.stalled) throw watch.error();
        throw new ProviderError('stream_dropped', `the ${providerName} stream broke off: ${networkCause(thrown)}`);
      }
      const payloads = chunk.done
        ? [...sse.push(text.decode()), ...sse.finish()]
        : sse.push(text.decode(chunk.value, { stream: true }));
      for (const payload of payloads) {
        const events = payload === '[DONE]' ? accumulator.finish() : accumulator.accept(parseJson(payload));
        // The turn is complete: free the connection now rather than when the consumer next pulls.
        if (accumulator.finished) await release();
        for (const event of events) {
          // Checked before each event, so an abort never fails a turn that has already delivered `done`.
          throwIfAborted(context);
          yield event;
        }
        if (accumulator.finished) return;
      }
      if (chunk.done)
        throw new ProviderError('stream_dropped', `the ${providerName} stream ended before the answer was complete`);
    }
  } finally {
    await release();
  }
}

function parseJson(payload: string): unknown {
  try {
    return JSON.parse(payload);
  } catch {
    throw new ProviderError('malformed', 'a stream event is not valid JSON');
  }
}
