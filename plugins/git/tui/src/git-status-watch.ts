import { Git, type GitStatus } from '@pi/git';
import type { CodingAgentTuiPluginContext } from '@pi/plugin-api';

/** The latest git status replicated from the session, for the footer to read while it renders. */
export interface GitStatusView {
  /** Undefined until the session has answered (or when it has no git plugin). */
  current(): GitStatus | undefined;
}

/**
 * Follows the session's Git status without holding up the facet's setup (the terminal comes up while the
 * session is still connecting): it subscribes once connected, and tries again on a later connection when an
 * attempt failed. Every change asks for a repaint, which the host coalesces into one frame.
 */
export function watchGitStatus(context: CodingAgentTuiPluginContext): GitStatusView {
  let latest: GitStatus | undefined;
  let watching = false;
  let attempt: Promise<void> | undefined;
  const attach = () => {
    if (watching || attempt !== undefined) return;
    attempt = context
      .use(Git)
      .then(
        (git) => {
          watching = true;
          const stop = git.status.subscribe((status) => {
            latest = status;
            context.ui.requestRender();
          });
          ownOrStop(context, stop);
        },
        // Not connected any more, or the session runs without @pi/git: nothing to show until a later connection.
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

/** Hands `stop` to the plugin's scope, or runs it at once when the plugin was disposed in the meantime. */
function ownOrStop(context: CodingAgentTuiPluginContext, stop: () => void): void {
  try {
    context.own(stop);
  } catch {
    stop();
  }
}
