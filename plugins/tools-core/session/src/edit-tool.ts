import { z } from 'zod';
import type { AgentTool } from '@pi/plugin-api';
import { CORE_TOOL_NAMES, type FileChangeDetails, type ToolFailureDetails } from '@pi/tools-core';
import { planEdit } from './edit-plan';
import { fileDiff } from './file-diff';
import { plural } from './text-lines';
import { replaceFile } from './text-file';
import { failureResult, ioFailure } from './tool-failure';

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
    async preflight(args) {
      return (await planEdit(cwd, args)).match(
        () => null,
        (failure) => failureResult(failure),
      );
    },
    async execute(args) {
      // Planned again: the file may have changed while the user was asked.
      const planned = await planEdit(cwd, args);
      if (planned.isErr()) return failureResult(planned.error);
      const { absolute, display, mode, before, after, replacements } = planned.value;
      try {
        await replaceFile(absolute, after, mode);
      } catch (error) {
        return failureResult(ioFailure('edit', display, error));
      }
      const change = fileDiff(display, before, after);
      const text = `Replaced ${plural(replacements, 'occurrence')} in ${display} (+${change.added} -${change.removed} lines).`;
      return {
        content: [{ type: 'text', text }],
        details: { path: display, created: false, replacements, ...change },
      };
    },
  };
}
