import { err, ok, type Result } from 'neverthrow';
import { findOccurrences, replaceOccurrences } from './occurrences';
import { readPrevious, type PreviousFile } from './text-file';
import { ioFailure, toolFailure, type ToolFailure } from './tool-failure';
import { resolveInside } from './workspace-paths';

/** What an edit asks for: exact text to replace, and whether every occurrence may be. */
export interface EditRequest {
  readonly path: string;
  readonly oldText: string;
  readonly newText: string;
  readonly replaceAll?: boolean | undefined;
}

/** An edit that can be made: the file, its text before and after, and how many occurrences changed. */
export interface EditPlan {
  readonly absolute: string;
  readonly display: string;
  readonly mode: number;
  readonly before: string;
  readonly after: string;
  readonly replacements: number;
}

/** How many occurrences an ambiguity message lists by line. */
const LISTED_OCCURRENCES = 10;

/**
 * Reads the file and works out the edit without writing anything: a path outside the working directory, a file
 * that is missing or binary, and text that occurs nowhere (or several times without `replaceAll`) are the
 * failure the model reads. Both the edit and its preflight run this, so the user is never asked to allow an edit
 * that cannot be made.
 */
export async function planEdit(cwd: string, request: EditRequest): Promise<Result<EditPlan, ToolFailure>> {
  const resolved = await resolveInside(cwd, request.path);
  if (resolved.isErr()) return err(resolved.error);
  const { absolute, display } = resolved.value;
  let previous: PreviousFile;
  try {
    previous = await readPrevious(absolute);
  } catch (error) {
    return err(ioFailure('edit', display, error));
  }
  if (previous.text === null) {
    return err(toolFailure('not_found', `${display} does not exist; use write to create it.`, display));
  }
  if (previous.binary) {
    return err(toolFailure('binary_file', `${display} is a binary file; edit changes text only.`, display));
  }
  const before = previous.text;
  const { oldText, newText } = matchLineEndings(before, request.oldText, request.newText);
  if (oldText === newText) {
    return err(toolFailure('no_change', 'oldText and newText are the same; nothing to change.', display));
  }
  const found = findOccurrences(before, oldText);
  if (found.length === 0) {
    return err(
      toolFailure(
        'no_match',
        `The text to replace was not found in ${display}; nothing was changed. It must match exactly, ` +
          'including whitespace and indentation: read the file to copy it.',
        display,
      ),
    );
  }
  if (found.length > 1 && request.replaceAll !== true) {
    const lines = found.slice(0, LISTED_OCCURRENCES).map((occurrence) => occurrence.line);
    const more = found.length > LISTED_OCCURRENCES ? ', …' : '';
    return err(
      toolFailure(
        'ambiguous_match',
        `The text to replace occurs ${found.length} times in ${display} (lines ${lines.join(', ')}${more}); ` +
          'nothing was changed. Include more surrounding lines to make it unique, or set replaceAll to ' +
          'replace every occurrence.',
        display,
      ),
    );
  }
  const after = replaceOccurrences(before, oldText, newText, found);
  return ok({ absolute, display, mode: previous.mode, before, after, replacements: found.length });
}

/**
 * Models write `\n`; a file may use `\r\n`. When the file's line endings are all CRLF and the texts have none,
 * the texts are matched and written with CRLF, so the edit neither fails nor mixes line endings.
 */
function matchLineEndings(file: string, oldText: string, newText: string): { oldText: string; newText: string } {
  const crlf = file.includes('\r\n') && !/(^|[^\r])\n/.test(file);
  if (!crlf || oldText.includes('\r') || newText.includes('\r')) return { oldText, newText };
  return { oldText: oldText.replaceAll('\n', '\r\n'), newText: newText.replaceAll('\n', '\r\n') };
}
