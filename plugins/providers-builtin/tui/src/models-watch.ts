import type { CodingAgentTuiPluginContext } from '@pi/plugin-api';
import { Models, type ModelsState } from '@pi/providers-builtin';

/** The latest Models state replicated from the session, for widgets to read while they render. */
export interface ModelsView {
  /** Undefined until the session has answered. */
  current(): ModelsState | undefined;
}

/**
 * Follows the session's Models state without holding up the facet's setup (the terminal must come up while
 * the session is still connecting): it subscribes once connected, and tries again on the next connection when
 * the first attempt failed. Every change asks for a repaint, which the host coalesces into one frame.
 */
export function watchModels(context: CodingAgentTuiPluginContext): ModelsView {
  let latest: ModelsState | undefined;
  let watching = false;
  let attempt: Promise<void> | undefined;
  const attach = () => {
    if (watching || attempt !== undefined) return;
    attempt = context
      .use(Models)
      .then(
        (models) => {
          watching = true;
          const stop = models.state.subscribe((state) => {
            latest = state;
            context.ui.requestRender();
          });
          ownOrStop(context, stop);
        },
        // Not connected any more, or the session has no Models: the footer stays empty until a later connection.
        () => undefined,
      )
      .finally(() => (attempt = undefined));
  };
  const stopFollowing = context.connection.subscribe((connection) => {
    if (connection.status === 'connected') attach();
  });
  context.own(stopFollowing);
  return { current: () => latest };
}

/** Hands `stop` to the plugin's scope, or runs it at once when the plugin was disposed in the meantime. */
function ownOrStop(context: CodingAgentTuiPluginContext, stop: () => void): void {
  try {
    context.own(stop);
  } catch {
    stop();
  }
}
