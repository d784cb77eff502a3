import { z } from 'zod';
import type { AgentTool } from '@pi/plugin-api';
import { CORE_TOOL_NAMES, type FileChangeDetails, type ToolFailureDetails } from '@pi/tools-core';
import { fileDiff } from './file-diff';
import { plural, splitLines } from './text-lines';
import { readPrevious, replaceFile } from './text-file';
import { failureResult, ioFailure } from './tool-failure';
import { writeTarget } from './write-target';

const writeParameters = z.object({
  path: z.string().min(1).describe('The file to write, relative to the working directory'),
  content: z.string().describe('The complete new content of the file'),
});

export type WriteArguments = z.infer<typeof writeParameters>;

/** `write`: a whole file's content, creating it (and its directories) or replacing it. */
export function writeTool(cwd: string): AgentTool<WriteArguments, FileChangeDetails | ToolFailureDetails> {
  return {
    name: CORE_TOOL_NAMES.write,
    label: 'Write',
    description: [
      'Write a file inside the working directory: create it, with any missing directories, or replace all of',
      'its content. Prefer edit for changing part of an existing file: write replaces everything.',
    ].join(' '),
    executionMode: 'sequential',
    parameters: writeParameters,
    async preflight(args) {
      return (await writeTarget(cwd, args.path)).match(
        () => null,
        (failure) => failureResult(failure),
      );
    },
    async execute(args) {
      // Checked again: the path may have changed while the user was asked.
      const resolved = await writeTarget(cwd, args.path);
      if (resolved.isErr()) return failureResult(resolved.error);
      const { absolute, display } = resolved.value;
      try {
        const previous = await readPrevious(absolute);
        await replaceFile(absolute, args.content, previous.mode);
        const change = fileDiff(display, previous.binary ? '' : (previous.text ?? ''), args.content);
        const created = previous.text === null;
        const size = `${plural(splitLines(args.content).length, 'line')}, ${plural(Buffer.byteLength(args.content), 'byte')}`;
        const text = created ? `Created ${display} (${size}).` : `Replaced the content of ${display} (${size}).`;
        return {
          content: [{ type: 'text', text }],
          details: { path: display, created, replacements: 0, ...change },
        };
      } catch (error) {
        return failureResult(ioFailure('write', display, error));
      }
    },
  };
}
