import { ProviderError } from '@pi/agent';
import type { Context } from '@pi/context';
import { httpErrorMessage, isContextOverflow, serverExplanation } from './http-error-message';
import { networkCause } from './network-cause';
import { abortedError } from './provider-abort';
import {
  isRetryableStatus,
  overloadedBackoffMs,
  retryAfterMs,
  waitUnlessAborted,
  type RetryBudget,
} from './retry-after';
import { StallWatch } from './stall-watch';

export interface EventStreamPost {
  readonly providerName: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly fetch: typeof fetch;
  readonly idleTimeoutMs: number;
  readonly retry: RetryBudget;
}

/** An accepted streaming response, with the watch its body must be read under. */
export interface OpenedStream {
  readonly body: ReadableStream<Uint8Array>;
  readonly watch: StallWatch;
}

/**
 * POSTs the request until a server accepts it. A 429, 503 or 529 whose Retry-After (for 529 without one, a short
 * backoff) fits in what is left of the budget is retried after that wait; anything else that is not an event
 * stream fails the turn at once.
 */
export async function openEventStream(post: EventStreamPost, context: Context): Promise<OpenedStream> {
  let waitedMs = 0;
  for (let retries = 0; ; retries += 1) {
    const watch = new StallWatch(post.idleTimeoutMs, post.providerName);
    const response = await send(post, watch, context);
    const contentType = response.headers.get('content-type') ?? '';
    if (response.ok && !contentType.includes('json')) {
      if (response.body === null)
        throw new ProviderError('stream_dropped', `${post.providerName} answered without a body`);
      return { body: response.body, watch };
    }
    const retryAfter = isRetryableStatus(response.status)
      ? (retryAfterMs(response.headers.get('retry-after'), Date.now()) ??
        (response.status === 529 ? overloadedBackoffMs(retries) : null))
      : null;
    if (retryAfter !== null && retries < post.retry.maxRetries && waitedMs + retryAfter <= post.retry.maxTotalWaitMs) {
      await response.body?.cancel().catch(() => undefined);
      await waitUnlessAborted(retryAfter, context.abortSignal);
      waitedMs += retryAfter;
      continue;
    }
    const body = await watch.during(response.text()).catch(() => '');
    if (context.abortSignal?.aborted === true) throw abortedError();
    if (response.ok) {
      // Some servers answer a failure with 200 and a JSON error instead of an event stream.
      const detail = serverExplanation(body, contentType);
      throw new ProviderError(
        'malformed',
        `${post.providerName} answered with JSON instead of an event stream${detail === '' ? '' : `: ${detail}`}`,
      );
    }
    const failed = {
      status: response.status,
      statusText: response.statusText,
      contentType,
      body,
      retryAfterMs: retryAfter,
    };
    throw new ProviderError(
      isContextOverflow(failed) ? 'context_overflow' : 'http_status',
      httpErrorMessage(post.providerName, failed),
    );
  }
}

async function send(post: EventStreamPost, watch: StallWatch, context: Context): Promise<Response> {
  const signal =
    context.abortSignal === undefined ? watch.signal : AbortSignal.any([context.abortSignal, watch.signal]);
  try {
    return await watch.during(
      post.fetch(post.url, { method: 'POST', headers: { ...post.headers }, body: post.body, signal }),
    );
  } catch (thrown) {
    if (context.abortSignal?.aborted === true) throw abortedError();
    if (watch.stalled) throw watch.error();
    throw new ProviderError('stream_dropped', `cannot reach ${post.providerName}: ${networkCause(thrown)}`);
  }
}
