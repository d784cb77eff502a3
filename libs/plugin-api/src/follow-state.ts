import type { RemoteService, RemoteState } from '@pi/remote';
import type { ConsumingPluginContext } from './consuming-context';

/** The latest value of a followed state, for a widget to read while it renders. */
export interface FollowedState<T> {
  /** Undefined until the session has answered (or while it serves no such service). */
  current(): T | undefined;
}

/**
 * Follows one replicated state of a remote service without holding up the facet's setup (a presentation comes
 * up while its session is still connecting): it subscribes once connected, and tries again on a later
 * connection when an attempt failed (not connected any more, or the service is not served). `onChange` runs
 * for every value; a TUI facet passes `ui.requestRender`, which the host coalesces into one frame.
 */
export function followState<S, T>(
  context: ConsumingPluginContext,
  service: RemoteService<S>,
  pick: (proxy: S) => RemoteState<T>,
  onChange: (value: T) => void,
): FollowedState<T> {
  let latest: T | undefined;
  let following = false;
  let attempt: Promise<void> | undefined;
  const attach = () => {
    if (following || attempt !== undefined) return;
    attempt = context
      .use(service)
      .then(
        (proxy) => {
          following = true;
          const stop = pick(proxy).subscribe((value) => {
            latest = value;
            onChange(value);
          });
          // The plugin may have been disposed while `use` was pending: then stop at once.
          try {
            context.own(stop);
          } catch {
            stop();
          }
        },
        () => undefined,
      )
      .finally(() => (attempt = undefined));
  };
  context.own(
    context.connection.subscribe((connection) => {
      if (connection.status === 'connected') attach();
    }),
  );
  return { current: () => latest };
}
