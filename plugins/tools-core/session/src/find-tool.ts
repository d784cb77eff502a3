import picomatch from 'picomatch';
import { z } from 'zod';
import type { AgentTool } from '@pi/plugin-api';
import { CORE_TOOL_NAMES, type ListingDetails, type ToolFailureDetails } from '@pi/tools-core';
import { walkEntries } from './file-walk';
import { BoundedLines, listingResult, OUTPUT_CAP_NOTICE } from './listing-result';
import { searchScope } from './search-scope';
import { failureResult, toolFailure } from './tool-failure';
import { TOOL_LIMITS } from './tool-limits';

const findParameters = z.object({
  pattern: z
    .string()
    .min(1)
    .describe('A glob: "*.ts" matches file names at any depth; a pattern with "/" ("src/**/*.test.ts") matches paths'),
  path: z.string().min(1).optional().describe('The directory to search, relative to the working directory (default .)'),
  limit: z
    .number()
    .int()
    .min(1)
    .max(TOOL_LIMITS.listMaxLimit)
    .optional()
    .describe(`How many paths to return at most (default ${TOOL_LIMITS.findDefaultLimit})`),
});

export type FindArguments = z.infer<typeof findParameters>;

/**
 * A glob matcher (picomatch) for paths relative to the searched directory: hidden files match, and a pattern
 * without `/` matches the last path component at any depth, as `fd` and `.gitignore` patterns do.
 */
export function globMatcher(pattern: string): (path: string) => boolean {
  return picomatch(pattern, { dot: true, basename: !pattern.includes('/') });
}

/** `find`: paths under a directory matching a glob, honouring `.gitignore`. */
export function findTool(cwd: string): AgentTool<FindArguments, ListingDetails | ToolFailureDetails> {
  return {
    name: CORE_TOOL_NAMES.find,
    label: 'Find',
    description: [
      'Find files and directories by glob under a directory of the working directory, skipping what .gitignore',
      'files ignore (and .git). A pattern without "/" matches names at any depth ("*.ts", "README*"); one with',
      '"/" matches paths relative to the searched directory ("src/**/*.test.ts"). Returns paths relative to the',
      'working directory, sorted, directories ending with /.',
    ].join(' '),
    executionMode: 'parallel',
    parameters: findParameters,
    async execute(args, context) {
      const scope = await searchScope(cwd, args.path);
      if (scope.isErr()) return failureResult(scope.error);
      const { root, display, isDirectory, start } = scope.value;
      if (!isDirectory) {
        return failureResult(
          toolFailure('not_a_directory', `${display} is a file; find searches directories.`, display),
        );
      }
      let matches: (path: string) => boolean;
      try {
        matches = globMatcher(args.pattern);
      } catch (error) {
        return failureResult(toolFailure('invalid_argument', `Invalid glob ${args.pattern}: ${String(error)}`));
      }
      const limit = args.limit ?? TOOL_LIMITS.findDefaultLimit;
      const found = new BoundedLines();
      let truncated = false;
      const prefix = start === '' ? '' : `${start}/`;
      for await (const entry of walkEntries({ root, start, signal: context.abortSignal })) {
        if (!matches(entry.path.slice(prefix.length))) continue;
        if (found.lines.length >= limit || !found.push(entry.isDirectory ? `${entry.path}/` : entry.path)) {
          truncated = true;
          break;
        }
      }
      if (context.abortSignal?.aborted === true) {
        return failureResult(toolFailure('aborted', 'The search was aborted.', display));
      }
      let notice: string | null = null;
      if (found.lines.length === 0) notice = `[No paths match ${args.pattern} in ${display}]`;
      else if (truncated) {
        const why = found.capped ? OUTPUT_CAP_NOTICE : `stopped at ${limit}; narrow the pattern or raise limit`;
        notice = `[${found.lines.length} paths shown: ${why}.]`;
      }
      const details = { path: display, pattern: args.pattern, count: found.lines.length, truncated };
      return listingResult(found.lines, details, notice);
    },
  };
}
