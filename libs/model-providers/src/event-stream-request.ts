import { ProviderError } from '@pi/agent';
import type { Context } from '@pi/context';
import type { HttpPost, PostResponse } from './http/http-post';
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
  readonly post: HttpPost;
  readonly idleTimeoutMs: number;
  readonly retry: RetryBudget;
}

/** An accepted streaming response, with the watch its body must be read under. */
export interface OpenedStream {
  readonly body: PostResponse;
  readonly watch: StallWatch;
}

/** Statuses whose answer has no body by definition (fetch gives them a null body). */
const BODYLESS_STATUSES = new Set([204, 205]);

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
    const contentType = response.header('content-type') ?? '';
    const ok = response.status >= 200 && response.status <= 299;
    if (ok && !contentType.includes('json')) {
      if (BODYLESS_STATUSES.has(response.status)) {
        await response.cancel();
        throw new ProviderError('stream_dropped', `${post.providerName} answered without a body`);
      }
      return { body: response, watch };
    }
    const retryAfter = isRetryableStatus(response.status)
      ? (retryAfterMs(response.header('retry-after'), Date.now()) ??
        (response.status === 529 ? overloadedBackoffMs(retries) : null))
      : null;
    if (retryAfter !== null && retries < post.retry.maxRetries && waitedMs + retryAfter <= post.retry.maxTotalWaitMs) {
      await response.cancel();
      await waitUnlessAborted(retryAfter, context.abortSignal);
      waitedMs += retryAfter;
      continue;
    }
    const body = await watch.during(response.text()).catch(() => '');
    await response.cancel();
    if (context.abortSignal?.aborted === true) throw abortedError();
    if (ok) {
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

async function send(post: EventStreamPost, watch: StallWatch, context: Context): Promise<PostResponse> {
  const signal =
    context.abortSignal === undefined ? watch.signal : AbortSignal.any([context.abortSignal, watch.signal]);
  try {
    return await watch.during(post.post({ url: post.url, headers: post.headers, body: post.body, signal }));
  } catch (thrown) {
    if (context.abortSignal?.aborted === true) throw abortedError();
    if (watch.stalled) throw watch.error();
    throw new ProviderError('stream_dropped', `cannot reach ${post.providerName}: ${networkCause(thrown)}`);
  }
}
