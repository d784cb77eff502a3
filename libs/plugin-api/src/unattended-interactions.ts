import type { Context } from '@pi/context';
import type { ProvidingInteractions, ProvidingPluginContext } from './providing-context';
import { RemoteError } from '@pi/remote';

/** Default wait for a presentation to attach when a request finds the session unattended. */
export const DEFAULT_UNATTENDED_TIMEOUT_MS = 30_000;

/** How often, once a client attached during the wait, the request is tried again until its handler is declared. */
const HANDLER_RETRY_MS = 25;

type ConnectionCallbacks = Pick<ProvidingPluginContext, 'interactions' | 'onClientConnect' | 'onClientDisconnect'>;

/**
 * The unattended-session policy over a facet's interactions, for plugins whose requests need a person (question,
 * confirm). It belongs in the host's interaction broker eventually, which sees handler declarations and needs no
 * retry. Attended (a client connected when the request is
 * made): the request goes to the broker as is — the newest handler is asked, and `no_handler` comes at once when
 * no connected client declared one. Unattended (no client connected): the request waits up to
 * `unattendedTimeoutMs` for a presentation to attach and declare a handler, then fails closed with `timeout`, so
 * a run in an unattended session goes on instead of holding a tool call for the full interaction timeout.
 */
export function unattendedInteractions(
  context: ConnectionCallbacks,
  unattendedTimeoutMs: number,
): ProvidingInteractions {
  const connected = new Set<string>();
  const attachWaiters = new Set<() => void>();
  context.onClientConnect((clientId) => {
    connected.add(clientId);
    for (const wake of [...attachWaiters]) wake();
  });
  context.onClientDisconnect((clientId) => void connected.delete(clientId));
  const { interactions } = context;

  return {
    async request(interaction, request, callContext, options) {
      const attended = connected.size > 0;
      // Asked first in any case: a client connected before this facet was set up (a reload) is not in `connected`.
      try {
        return await interactions.request(interaction, request, callContext, options);
      } catch (failure) {
        if (attended || !(failure instanceof RemoteError && failure.code === 'no_handler')) throw failure;
      }
      const deadline = Date.now() + unattendedTimeoutMs;
      for (;;) {
        const remaining = deadline - Date.now();
        if (remaining <= 0) {
          const seconds = unattendedTimeoutMs / 1000;
          throw new RemoteError('timeout', `No presentation attached within ${seconds} s: the session is unattended`);
        }
        if (connected.size === 0) {
          await pause(remaining, callContext, attachWaiters);
          continue;
        }
        try {
          return await interactions.request(interaction, request, callContext, options);
        } catch (failure) {
          // A client that just attached declares its handlers a round trip later.
          if (!(failure instanceof RemoteError && failure.code === 'no_handler')) throw failure;
        }
        await pause(Math.min(HANDLER_RETRY_MS, remaining), callContext, null);
      }
    },
  };
}

/** Waits `ms`, or until a client attaches (with `waiters`); the run's cancellation ends it with `cancelled`. */
function pause(ms: number, context: Context, waiters: Set<() => void> | null): Promise<void> {
  return new Promise((resolve, reject) => {
    const signal = context.abortSignal;
    const done = (): void => {
      clearTimeout(timer);
      waiters?.delete(wake);
      signal?.removeEventListener('abort', onAbort);
    };
    const wake = (): void => {
      done();
      resolve();
    };
    const onAbort = (): void => {
      done();
      reject(new RemoteError('cancelled', 'The interaction was cancelled'));
    };
    const timer = setTimeout(wake, ms);
    waiters?.add(wake);
    if (signal?.aborted === true) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
}
