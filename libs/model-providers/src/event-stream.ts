import { ProviderError, type ProviderEvent } from '@pi/agent';
import type { Context } from '@pi/context';
import type { PostResponse } from './http/http-post';
import { networkCause } from './network-cause';
import { abortedError, throwIfAborted } from './provider-abort';
import { SseDecoder } from './sse-decoder';
import type { StallWatch } from './stall-watch';

/** Turns one provider's stream events (the `data` of each) into ProviderEvents; `finished` once the answer is whole. */
export interface StreamAccumulator {
  accept(data: string): ProviderEvent[];
  readonly finished: boolean;
  /** The body ended before `finished`: the events that complete the answer, or null when it broke off. */
  end(): ProviderEvent[] | null;
}

/**
 * Reads the SSE body of one streamed answer into ProviderEvents, until the accumulator says it is complete.
 * Each read waits on the server under `watch`, so a server that goes quiet fails the turn instead of holding it.
 */
export async function* readEventStream(
  providerName: string,
  body: PostResponse,
  accumulator: StreamAccumulator,
  context: Context,
  watch: StallWatch,
): AsyncGenerator<ProviderEvent> {
  const sse = new SseDecoder();
  try {
    for (;;) {
      let text: string | null;
      try {
        text = await watch.during(body.read());
      } catch (thrown) {
        if (context.abortSignal?.aborted === true) throw abortedError();
        if (watch.stalled) throw watch.error();
        throw new ProviderError('stream_dropped', `the ${providerName} stream broke off: ${networkCause(thrown)}`);
      }
      const payloads = text === null ? sse.finish() : sse.push(text);
      for (const payload of payloads) {
        const events = accumulator.accept(payload);
        // The turn is complete: free the connection now rather than when the consumer next pulls.
        if (accumulator.finished) await body.cancel();
        for (const event of events) {
          // Checked before each event, so an abort never fails a turn that has already delivered `done`.
          throwIfAborted(context);
          yield event;
        }
        if (accumulator.finished) return;
      }
      if (text === null) {
        const closing = accumulator.end();
        if (closing === null)
          throw new ProviderError('stream_dropped', `the ${providerName} stream ended before the answer was complete`);
        for (const event of closing) {
          throwIfAborted(context);
          yield event;
        }
        return;
      }
    }
  } finally {
    await body.cancel();
  }
}

/** The JSON of one stream event; anything else is a malformed stream. */
export function parseEventJson(payload: string): unknown {
  try {
    return JSON.parse(payload);
  } catch {
    throw new ProviderError('malformed', 'a stream event is not valid JSON');
  }
}
