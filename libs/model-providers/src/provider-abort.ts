import { ProviderError } from '@pi/agent';
import type { Context } from '@pi/context';

/** The one error every provider rejects with once its caller has aborted, whatever was in flight. */
export function abortedError(): ProviderError {
  return new ProviderError('aborted', 'the model request was aborted');
}

/** Checked between events, so an abort takes effect at the next delta rather than at the end of the answer. */
export function throwIfAborted(context: Context): void {
  if (context.abortSignal?.aborted === true) throw abortedError();
}
