import { GIT_PLUGIN_ID, Git } from '@pi/git';
import { followState, type Facet } from '@pi/plugin-api';
import { gitFooterLine } from './footer-text';

/** The manifest id this facet answers to. */
export const pluginId = GIT_PLUGIN_ID;

/**
 * The TUI facet of @pi/git: one footer line with the branch (or the detached commit), a `*` when the working
 * tree is dirty, and how far the branch is ahead of and behind its upstream. It repaints on every change of the
 * session's replicated status and shows nothing outside a repository.
 */
export const gitTuiFacet: Facet<'tui'> = (context) => {
  const status = followState(
    context,
    Git,
    (git) => git.status,
    () => context.ui.requestRender(),
  );
  context.slots.add('footer', {
    render(width) {
      const current = status.current();
      const line = current === undefined ? undefined : gitFooterLine(current, context.ui.theme, width);
      return line === undefined ? [] : [line];
    },
  });
};
