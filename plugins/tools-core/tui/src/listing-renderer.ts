import type { JsonObject, ToolRenderer, TuiTheme } from '@pi/plugin-api';
import { bodyWithoutNotice, listingDetailsSchema } from '@pi/tools-core';
import { textArgument } from './call-arguments';
import { displayLines } from './display-text';
import { callTitle, failedBlock, toolBlock } from './tool-block';

/** Lines of a listing shown while tool output is collapsed. */
export const LISTING_COLLAPSED_LINES = 10;

interface ListingKind {
  readonly name: 'ls' | 'find' | 'grep';
  /** What the call works on, from its arguments. */
  readonly subject: (args: JsonObject) => string;
  /** What the results are: `entries`, `paths`, `matches`. */
  readonly noun: string;
}

const KINDS: Record<ListingKind['name'], ListingKind> = {
  ls: { name: 'ls', subject: (args) => textArgument(args, 'path') || '.', noun: 'entries' },
  find: { name: 'find', subject: (args) => `${textArgument(args, 'pattern')}${inPath(args)}`, noun: 'paths' },
  grep: { name: 'grep', subject: (args) => `/${textArgument(args, 'pattern')}/${inPath(args)}`, noun: 'matches' },
};

function inPath(args: JsonObject): string {
  const path = textArgument(args, 'path');
  return path === '' ? '' : ` in ${path}`;
}

/** `ls`, `find` and `grep`: what was searched; then how many results and the first lines (all with Ctrl+O). */
export function listingRenderer(name: ListingKind['name']): ToolRenderer {
  const kind = KINDS[name];
  return {
    renderCall(args, theme) {
      return callTitle(theme, name, kind.subject(args));
    },
    renderResult(result, theme, { expanded }) {
      const details = listingDetailsSchema.safeParse(result.details);
      if (result.isError || !details.success) return failedBlock(displayLines(result.text), theme);
      const { count, truncated, notice } = details.data;
      return toolBlock(
        {
          header: header(count, truncated, kind.noun, theme),
          body: displayLines(bodyWithoutNotice(result.text, notice)),
          collapse: { keep: 'head', lines: LISTING_COLLAPSED_LINES },
          expanded,
          footer: notice,
        },
        theme,
      );
    },
  };
}

function header(count: number, truncated: boolean, noun: string, theme: TuiTheme): string {
  return `${theme.fg('success', '✓')} ${theme.fg('muted', `${count}${truncated ? '+' : ''} ${noun}`)}`;
}
