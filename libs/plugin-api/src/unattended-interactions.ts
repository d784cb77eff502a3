import type { ProvidingInteractions, ProvidingPluginContext } from './providing-context';

/** Default wait for a presentation to attach when a request finds the session unattended. */
export const DEFAULT_UNATTENDED_TIMEOUT_MS = 30_000;

type ConnectionCallbacks = Pick<ProvidingPluginContext, 'interactions' | 'onClientConnect' | 'onClientDisconnect'>;

/**
 * The unattended-session policy over a facet's interactions, for plugins whose requests need a person (question,
 * confirm). Attended (a client connected when the request is made): the request goes to the broker as is — the
 * newest handler is asked, and `no_handler` comes at once when no connected client declared one. Unattended (no
 * client connected): the broker waits up to `unattendedTimeoutMs` for a presentation to attach and declare a
 * handler, then fails closed with `timeout`, so a run in an unattended session goes on instead of holding a tool
 * call for the full interaction timeout. A handler already declared is always asked at once.
 */
export function unattendedInteractions(
  context: ConnectionCallbacks,
  unattendedTimeoutMs: number,
): ProvidingInteractions {
  const connected = new Set<string>();
  context.onClientConnect((clientId) => void connected.add(clientId));
  context.onClientDisconnect((clientId) => void connected.delete(clientId));
  const { interactions } = context;
  return {
    request: (interaction, request, callContext, options) =>
      interactions.request(interaction, request, callContext, {
        ...options,
        ...(connected.size === 0 ? { waitForHandlerMs: unattendedTimeoutMs } : {}),
      }),
  };
}
