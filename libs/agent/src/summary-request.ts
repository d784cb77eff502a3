import type { Context } from '@pi/context';
import type { ModelProvider, SummaryRequest } from '@pi/agent-contract';
import { iterateUntilAborted } from './abortable-iteration';
import { errorMessage, providerErrorText } from './error-text';
import { summaryPrompt } from './summary-prompt';

/** A summary longer than this is cut: it is meant to be a fraction of the window, and it is stored whole. */
export const MAX_SUMMARY_CHARS = 100_000;

export type SummaryOutcome =
  | { kind: 'written'; summary: string }
  | { kind: 'aborted' }
  | { kind: 'failed'; error: string };

/**
 * Asks the provider for a compaction's summary: its own `summarize` when it has one, else a streamed answer to
 * the harness's summary prompt. The abort of `context` ends the wait at once, whatever the provider does; a
 * failure is the provider's text with credential shapes removed, as for a failed turn.
 */
export async function requestSummary(
  provider: ModelProvider,
  request: SummaryRequest,
  context: Context,
): Promise<SummaryOutcome> {
  const signal = context.abortSignal ?? new AbortController().signal;
  let summary: string;
  try {
    const written =
      provider.summarize === undefined
        ? streamedSummary(provider, request, context, signal)
        : untilAborted(provider.summarize(request, context), signal);
    const result = await written;
    if (result === null || signal.aborted) return { kind: 'aborted' };
    summary = result;
  } catch (error) {
    if (signal.aborted) return { kind: 'aborted' };
    return { kind: 'failed', error: providerErrorText(error) };
  }
  if (typeof summary !== 'string' || summary.trim() === '')
    return { kind: 'failed', error: `${provider.name} wrote an empty summary` };
  const trimmed = summary.trim();
  return {
    kind: 'written',
    summary: trimmed.length <= MAX_SUMMARY_CHARS ? trimmed : `${trimmed.slice(0, MAX_SUMMARY_CHARS)}… [summary cut]`,
  };
}

/** The summary prompt as an ordinary request without tools; the answer's text is the summary. */
async function streamedSummary(
  provider: ModelProvider,
  request: SummaryRequest,
  context: Context,
  signal: AbortSignal,
): Promise<string | null> {
  const prompt = summaryPrompt(request);
  let text = '';
  const end = await iterateUntilAborted(
    provider.stream(
      {
        modelId: request.modelId,
        messages: [{ role: 'user', content: [{ type: 'text', text: `${prompt.system}\n\n${prompt.user}` }] }],
        tools: [],
        thinkingLevel: 'off',
      },
      context,
    ),
    signal,
    (event) => {
      if (event.type === 'text_delta') text += event.delta;
      return event.type !== 'done';
    },
  );
  if (end === 'aborted') return null;
  if (end === 'finished') throw new Error('the summary stream ended without a done event');
  return text;
}

/** The provider's promise, or null as soon as `signal` aborts (a provider that ignores it is not waited for). */
function untilAborted(written: Promise<string>, signal: AbortSignal): Promise<string | null> {
  if (signal.aborted) {
    written.catch(() => undefined);
    return Promise.resolve(null);
  }
  return new Promise((resolve, reject) => {
    const onAbort = () => resolve(null);
    signal.addEventListener('abort', onAbort, { once: true });
    written.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error instanceof Error ? error : new Error(errorMessage(error)));
      },
    );
  });
}
