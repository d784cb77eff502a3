import { readdir, stat } from 'node:fs/promises';
import { z } from 'zod';
import type { AgentTool } from '@pi/plugin-api';
import { CORE_TOOL_NAMES, type ListingDetails, type ToolFailureDetails } from '@pi/tools-core';
import { BoundedLines, listingResult, OUTPUT_CAP_NOTICE } from './listing-result';
import { plural } from './text-lines';
import { failureResult, ioFailure, toolFailure } from './tool-failure';
import { TOOL_LIMITS } from './tool-limits';
import { resolveInside } from './workspace-paths';

const lsParameters = z.object({
  path: z.string().min(1).optional().describe('The directory to list, relative to the working directory (default .)'),
  limit: z
    .number()
    .int()
    .min(1)
    .max(TOOL_LIMITS.listMaxLimit)
    .optional()
    .describe(`How many entries to list at most (default ${TOOL_LIMITS.listDefaultLimit})`),
});

export type LsArguments = z.infer<typeof lsParameters>;

/** `ls`: one directory's entries, dotfiles included, directories marked with `/` and symlinks with `@`. */
export function lsTool(cwd: string): AgentTool<LsArguments, ListingDetails | ToolFailureDetails> {
  return {
    name: CORE_TOOL_NAMES.ls,
    label: 'List',
    description: [
      'List the entries of a directory inside the working directory (default: the working directory itself),',
      'sorted by name, hidden ones included. Directories end with / and symbolic links with @.',
      'Not recursive: use find to search a tree.',
    ].join(' '),
    executionMode: 'parallel',
    parameters: lsParameters,
    async execute(args) {
      const resolved = await resolveInside(cwd, args.path ?? '.');
      if (resolved.isErr()) return failureResult(resolved.error);
      const { absolute, display } = resolved.value;
      try {
        if (!(await stat(absolute)).isDirectory()) {
          return failureResult(toolFailure('not_a_directory', `${display} is a file; use read to read it.`, display));
        }
        const entries = await readdir(absolute, { withFileTypes: true });
        const names = entries
          .map((entry) => entry.name + (entry.isSymbolicLink() ? '@' : entry.isDirectory() ? '/' : ''))
          .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
        const limit = args.limit ?? TOOL_LIMITS.listDefaultLimit;
        const shown = new BoundedLines();
        for (const name of names.slice(0, limit)) if (!shown.push(name)) break;
        const truncated = shown.lines.length < names.length;
        let notice: string | null = null;
        if (names.length === 0) notice = `[${display} is empty]`;
        else if (truncated) {
          const why = shown.capped ? OUTPUT_CAP_NOTICE : 'raise limit to see more';
          notice = `[Showing ${shown.lines.length} of ${plural(names.length, 'entry', 'entries')}: ${why}.]`;
        }
        return listingResult(
          shown.lines,
          { path: display, pattern: null, count: shown.lines.length, truncated },
          notice,
        );
      } catch (error) {
        return failureResult(ioFailure('list', display, error));
      }
    },
  };
}
