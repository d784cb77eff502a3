import type { ToolRenderer } from '@pi/plugin-api';
import { bodyWithoutNotice, readDetailsSchema } from '@pi/tools-core';
import { numberArgument, textArgument } from './call-arguments';
import { displayLines } from './display-text';
import { callTitle, failedBlock, toolBlock } from './tool-block';

/** Lines of a file shown while tool output is collapsed. */
export const READ_COLLAPSED_LINES = 10;

/** `read`: the path and range asked for; then the file's first lines (all of them with Ctrl+O). */
export const readRenderer: ToolRenderer = {
  renderCall(args, theme) {
    const offset = numberArgument(args, 'offset');
    const limit = numberArgument(args, 'limit');
    const range =
      offset === undefined && limit === undefined
        ? ''
        : `lines ${offset ?? 1}${limit === undefined ? '+' : `-${(offset ?? 1) + limit - 1}`}`;
    return callTitle(theme, 'read', textArgument(args, 'path'), range);
  },
  renderResult(result, theme, { expanded }) {
    const details = readDetailsSchema.safeParse(result.details);
    if (result.isError || !details.success) return failedBlock(displayLines(result.text), theme);
    const { startLine, endLine, totalLines, notice } = details.data;
    const header =
      totalLines === 0
        ? `${theme.fg('success', '✓')} ${theme.fg('muted', 'empty file')}`
        : `${theme.fg('success', '✓')} ${theme.fg('muted', `lines ${startLine}-${endLine} of ${totalLines}`)}`;
    return toolBlock(
      {
        header,
        body: displayLines(bodyWithoutNotice(result.text, notice)),
        collapse: { keep: 'head', lines: READ_COLLAPSED_LINES },
        expanded,
        footer: totalLines === 0 ? null : notice,
      },
      theme,
    );
  },
};
