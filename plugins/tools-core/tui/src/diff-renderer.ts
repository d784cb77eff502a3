import type { ToolRenderer, TuiTheme } from '@pi/plugin-api';
import { fileChangeDetailsSchema, type FileChangeDetails } from '@pi/tools-core';
import { textArgument } from './call-arguments';
import { displayLine, displayLines } from './display-text';
import { callTitle, failedBlock, toolBlock } from './tool-block';

/** Lines of a diff shown while tool output is collapsed. */
export const DIFF_COLLAPSED_LINES = 30;

/**
 * A unified diff's lines in the theme's colours: added lines in the success colour, removed ones in the error
 * colour, hunk headers muted, context as text. The `---`/`+++` file headers are left out (the status line names
 * the file).
 */
export function diffLines(diff: string, theme: TuiTheme): string[] {
  const lines = diff.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines.flatMap((line) => {
    if (line.startsWith('--- ') || line.startsWith('+++ ')) return [];
    const shown = displayLine(line);
    if (line.startsWith('+')) return [theme.fg('success', shown)];
    if (line.startsWith('-')) return [theme.fg('error', shown)];
    if (line.startsWith('@@')) return [theme.fg('muted', shown)];
    if (line.startsWith('\\')) return [theme.fg('dim', shown)];
    return [shown];
  });
}

/** `edit` and `write`: the file; then what changed as a coloured diff. */
export function fileChangeRenderer(name: 'edit' | 'write'): ToolRenderer {
  return {
    renderCall(args, theme) {
      return callTitle(theme, name, textArgument(args, 'path'));
    },
    renderResult(result, theme, { expanded }) {
      const details = fileChangeDetailsSchema.safeParse(result.details);
      if (result.isError || !details.success) return failedBlock(displayLines(result.text), theme);
      return toolBlock(
        {
          header: header(details.data, theme),
          body: diffLines(details.data.diff, theme),
          collapse: { keep: 'head', lines: DIFF_COLLAPSED_LINES },
          expanded,
          footer: details.data.diffTruncated ? '[the diff is cut here]' : null,
        },
        theme,
      );
    },
  };
}

function header(details: FileChangeDetails, theme: TuiTheme): string {
  const verb = details.created ? 'created' : details.replacements > 0 ? 'edited' : 'wrote';
  const counts = `${theme.fg('success', `+${details.added}`)} ${theme.fg('error', `-${details.removed}`)}`;
  return `${theme.fg('success', '✓')} ${theme.fg('muted', `${verb} ${displayLine(details.path)}`)} ${counts}`;
}
