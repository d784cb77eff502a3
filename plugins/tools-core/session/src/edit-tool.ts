import { z } from 'zod';
import type { AgentTool } from '@pi/plugin-api';
import { CORE_TOOL_NAMES, type FileChangeDetails, type ToolFailureDetails } from '@pi/tools-core';
import { fileDiff } from './file-diff';
import { findOccurrences, replaceOccurrences } from './occurrences';
import { plural } from './text-lines';
import { readPrevious, replaceFile } from './text-file';
import { failureResult, ioFailure, toolFailure } from './tool-failure';
import { resolveInside } from './workspace-paths';

const editParameters = z.object({
  path: z.string().min(1).describe('The file to edit, relative to the working directory'),
  oldText: z
    .string()
    .min(1)
    .describe('The exact text to replace, including whitespace and indentation; it must occur exactly once'),
  newText: z.string().describe('The text to put in its place'),
  replaceAll: z
    .boolean()
    .optional()
    .describe('Replace every occurrence of oldText instead of requiring exactly one (default false)'),
});

export type EditArguments = z.infer<typeof editParameters>;

/** How many occurrences an ambiguity message lists by line. */
const LISTED_OCCURRENCES = 10;

/** `edit`: exact-match replacement in one file; a missing or ambiguous match changes nothing. */
export function editTool(cwd: string): AgentTool<EditArguments, FileChangeDetails | ToolFailureDetails> {
  return {
    name: CORE_TOOL_NAMES.edit,
    label: 'Edit',
    description: [
      'Edit a file inside the working directory by replacing exact text. oldText must match the file exactly',
      '(whitespace and indentation included) and occur exactly once; include surrounding lines to make it unique.',
      'If it occurs nowhere or several times, nothing is changed and the result says so. Set replaceAll to',
      'replace every occurrence (for renaming). Read the file first to copy the text exactly.',
    ].join(' '),
    executionMode: 'sequential',
    parameters: editParameters,
    async execute(args) {
      const resolved = await resolveInside(cwd, args.path);
      if (resolved.isErr()) return failureResult(resolved.error);
      const { absolute, display } = resolved.value;
      try {
        const previous = await readPrevious(absolute);
        if (previous.text === null) {
          return failureResult(toolFailure('not_found', `${display} does not exist; use write to create it.`, display));
        }
        if (previous.binary) {
          return failureResult(
            toolFailure('binary_file', `${display} is a binary file; edit changes text only.`, display),
          );
        }
        const before = previous.text;
        const { oldText, newText } = matchLineEndings(before, args.oldText, args.newText);
        if (oldText === newText) {
          return failureResult(
            toolFailure('no_change', 'oldText and newText are the same; nothing to change.', display),
          );
        }
        const found = findOccurrences(before, oldText);
        if (found.length === 0) {
          return failureResult(
            toolFailure(
              'no_match',
              `The text to replace was not found in ${display}; nothing was changed. It must match exactly, ` +
                'including whitespace and indentation: read the file to copy it.',
              display,
            ),
          );
        }
        if (found.length > 1 && args.replaceAll !== true) {
          const lines = found.slice(0, LISTED_OCCURRENCES).map((occurrence) => occurrence.line);
          const more = found.length > LISTED_OCCURRENCES ? ', …' : '';
          return failureResult(
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
        await replaceFile(absolute, after, previous.mode);
        const change = fileDiff(display, before, after);
        const text = `Replaced ${plural(found.length, 'occurrence')} in ${display} (+${change.added} -${change.removed} lines).`;
        return {
          content: [{ type: 'text', text }],
          details: { path: display, created: false, replacements: found.length, ...change },
        };
      } catch (error) {
        return failureResult(ioFailure('edit', display, error));
      }
    },
  };
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
