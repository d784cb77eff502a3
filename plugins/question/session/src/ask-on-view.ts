import { QuestionView, type QuestionRequest, type QuestionResponse } from '@pi/question';
import { RemoteError } from '@pi/remote';
import { TOOL_CALL_STEP, type CodingAgentSessionPluginContext, type Context } from '@pi/plugin-api';

/** Asks the user one question; rejects with a RemoteError whose code says why nobody answered. */
export type Ask = (request: QuestionRequest, context: Context) => Promise<QuestionResponse>;

/** How a question view ends: the answer, or why there was none. */
type Ending = { answered: QuestionResponse } | { failed: 'timeout' | 'cancelled' | 'no_handler' };

export interface AskTimeouts {
  /** How long the user may take once the question is shown. */
  readonly timeoutMs: number;
  /** With no client attached, how long to wait for one that shows questions. */
  readonly unattendedTimeoutMs: number;
}

type ViewCapabilities = Pick<CodingAgentSessionPluginContext, 'view' | 'onClientConnect' | 'onClientDisconnect'>;

/**
 * The spec's "open/ask" on views: each question is a durable view (so a TUI that reattaches finds it again and the
 * tool keeps waiting, also across a restart of the session) addressed to the client whose prompt started the run;
 * the first answer a client sends closes it. It fails
 * closed: `no_handler` at once when clients are attached but none shows questions, `timeout` when the user (or,
 * unattended, a presentation) does not come in time, `cancelled` when the run is aborted.
 */
export function askOnView(context: ViewCapabilities, timeouts: AskTimeouts): Ask {
  const connected = new Set<string>();
  context.onClientConnect((clientId) => void connected.add(clientId));
  context.onClientDisconnect((clientId) => void connected.delete(clientId));
  return async (request, callContext) => {
    const signal = callContext.abortSignal;
    if (signal?.aborted === true) throw new RemoteError('cancelled', 'The question was cancelled');
    // Named after the tool call: a run resumed after a restart asks again on the view the user already sees.
    const step = callContext.value(TOOL_CALL_STEP);
    const view = context.view<QuestionRequest, QuestionResponse, Ending>(QuestionView, request, {
      to: 'originator',
      durable: true,
      context: callContext,
      ...(step === undefined ? {} : { id: `${step.operationId}:${step.toolCallId}` }),
    });
    const end = (ending: Ending) => view.close(ending);
    view.on((response) => end({ answered: response }));
    const timers = [setTimeout(() => end({ failed: 'timeout' }), timeouts.timeoutMs)];
    if (connected.size === 0 && view.shownBy === 0) {
      const unattended = setTimeout(
        () => view.shownBy === 0 && end({ failed: 'timeout' }),
        timeouts.unattendedTimeoutMs,
      );
      timers.push(unattended);
    } else if (view.shownBy === 0) {
      end({ failed: 'no_handler' });
    }
    const onAbort = () => end({ failed: 'cancelled' });
    signal?.addEventListener('abort', onAbort, { once: true });
    const outcome = await view.done;
    for (const timer of timers) clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
    if (outcome.isErr()) throw new RemoteError('cancelled', `The question view closed (${outcome.error})`);
    const ending = outcome.value;
    if ('answered' in ending) return ending.answered;
    throw new RemoteError(ending.failed, MESSAGES[ending.failed]);
  };
}

const MESSAGES: Record<Extract<Ending, { failed: string }>['failed'], string> = {
  timeout: 'The question was not answered in time',
  cancelled: 'The question was cancelled',
  no_handler: 'No connected client shows questions',
};
