import type { LoadedFacet, PluginSet } from '@pi/host-kit';
import { wrapText } from '@pi/terminal';

/** The id the header's lines are owned by (a host part of the TUI, in no manifest). */
export const PLUGIN_SCOPE_HEADER_ID = 'pi-tui.plugin-scopes';

/**
 * A header that says which project plugins run (code from the repository the user opened, so they should see
 * it) and which plugins were left out at start and why. Nothing when there are neither.
 */
export function pluginScopeHeader(set: Pick<PluginSet<'tui'>, 'scopes' | 'problems'>): LoadedFacet<'tui'> {
  const project = set.scopes.find((scope) => scope.scope === 'project' && scope.plugins.length > 0);
  return {
    id: PLUGIN_SCOPE_HEADER_ID,
    config: null,
    module: import.meta.url,
    facet: (context) => {
      context.slots.add('header', {
        render(width) {
          const { theme } = context.ui;
          const lines: string[] = [];
          if (project !== undefined) {
            const text = `Project plugins: ${project.plugins.join(', ')} (${project.source})`;
            lines.push(...wrapText(text, width).map((line) => theme.fg('warning', line)));
          }
          for (const problem of set.problems) {
            lines.push(...wrapText(`Plugins left out: ${problem}`, width).map((line) => theme.fg('error', line)));
          }
          return lines;
        },
      });
    },
  };
}
