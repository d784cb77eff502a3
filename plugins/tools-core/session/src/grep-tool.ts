import { lstat, readFile, realpath } from 'node:fs/promises';
import { z } from 'zod';
import type { AgentTool } from '@pi/plugin-api';
import { CORE_TOOL_NAMES, type ListingDetails, type ToolFailureDetails } from '@pi/tools-core';
import { looksBinary } from './binary-sniff';
import { walkEntries, type WalkEntry } from './file-walk';
import { globMatcher } from './find-tool';
import { BoundedLines, listingResult, OUTPUT_CAP_NOTICE } from './listing-result';
import { searchScope } from './search-scope';
import { clipLine, plural, splitLines } from './text-lines';
import { failureResult, toolFailure } from './tool-failure';
import { TOOL_LIMITS } from './tool-limits';
import { isWithin } from './workspace-paths';

const MAX_CONTEXT_LINES = 10;

const grepParameters = z.object({
  pattern: z.string().min(1).describe('A JavaScript regular expression, matched against each line'),
  path: z
    .string()
    .min(1)
    .optional()
    .describe('The directory or file to search, relative to the working directory (default .)'),
  glob: z.string().min(1).optional().describe('Only search files matching this glob, e.g. "*.ts" or "src/**/*.md"'),
  ignoreCase: z.boolean().optional().describe('Match regardless of case (default false)'),
  literal: z.boolean().optional().describe('Treat pattern as plain text, not a regular expression (default false)'),
  context: z
    .number()
    .int()
    .min(0)
    .max(MAX_CONTEXT_LINES)
    .optional()
    .describe('Lines of context to show before and after each match (default 0)'),
  limit: z
    .number()
    .int()
    .min(1)
    .max(TOOL_LIMITS.listMaxLimit)
    .optional()
    .describe(`How many matching lines to return at most (default ${TOOL_LIMITS.grepDefaultLimit})`),
});

export type GrepArguments = z.infer<typeof grepParameters>;

/** `grep`: lines matching a regular expression in the files of a tree, honouring `.gitignore`, bounded. */
export function grepTool(cwd: string): AgentTool<GrepArguments, ListingDetails | ToolFailureDetails> {
  return {
    name: CORE_TOOL_NAMES.grep,
    label: 'Grep',
    description: [
      'Search file contents inside the working directory for a regular expression (JavaScript syntax), line by',
      'line, skipping what .gitignore files ignore, .git, binary files and files over',
      `${TOOL_LIMITS.grepMaxFileBytes / 1024 / 1024} MiB. Returns "path:line:text" per matching line (context`,
      `lines as "path-line-text", groups apart by "--"), at most ${TOOL_LIMITS.grepDefaultLimit} matches by default;`,
      `lines are cut at ${TOOL_LIMITS.grepMaxLineLength} characters. Narrow with path and glob.`,
    ].join(' '),
    executionMode: 'parallel',
    parameters: grepParameters,
    async execute(args, context) {
      const scope = await searchScope(cwd, args.path);
      if (scope.isErr()) return failureResult(scope.error);
      const { root, display, isDirectory, start, absolute } = scope.value;
      let regex: RegExp;
      try {
        const source = args.literal === true ? args.pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') : args.pattern;
        regex = new RegExp(source, args.ignoreCase === true ? 'i' : '');
      } catch (error) {
        return failureResult(toolFailure('invalid_argument', `${(error as Error).message}.`));
      }
      const inGlob = args.glob === undefined ? () => true : globMatcher(args.glob);
      const limit = args.limit ?? TOOL_LIMITS.grepDefaultLimit;
      const search = new GrepSearch(regex, args.context ?? 0, limit);
      const files: AsyncIterable<WalkEntry> = isDirectory
        ? walkEntries({ root, start, signal: context.abortSignal })
        : singleFile(display, absolute);
      const prefix = start === '' || !isDirectory ? '' : `${start}/`;
      for await (const entry of files) {
        if (entry.isDirectory || !inGlob(entry.path.slice(prefix.length))) continue;
        const text = await searchableText(root, entry);
        if (text === null) continue;
        if (!search.file(entry.path, text)) break;
      }
      if (context.abortSignal?.aborted === true) {
        return failureResult(toolFailure('aborted', 'The search was aborted.', display));
      }
      let notice: string | null = null;
      if (search.matches === 0) notice = `[No matches for /${args.pattern}/ in ${display}]`;
      else if (search.truncated) {
        const why = search.output.capped ? OUTPUT_CAP_NOTICE : `stopped at ${limit}; narrow the search or raise limit`;
        notice = `[${plural(search.matches, 'matching line')} shown: ${why}.]`;
      }
      const details = { path: display, pattern: args.pattern, count: search.matches, truncated: search.truncated };
      return listingResult(search.output.lines, details, notice);
    },
  };
}

async function* singleFile(path: string, absolute: string): AsyncGenerator<WalkEntry> {
  yield { path, absolute, isDirectory: false, isSymbolicLink: false };
}

/**
 * The text of a file worth searching, or null: too large, binary, unreadable, or a symlink leading out of the
 * working directory (a walk lists symlinks without following them; reading one would).
 */
async function searchableText(root: string, entry: WalkEntry): Promise<string | null> {
  try {
    if (entry.isSymbolicLink && !isWithin(root, await realpath(entry.absolute))) return null;
    const stats = await lstat(entry.absolute);
    if (stats.size > TOOL_LIMITS.grepMaxFileBytes) return null;
    const bytes = await readFile(entry.absolute);
    if (bytes.length > TOOL_LIMITS.grepMaxFileBytes || looksBinary(bytes)) return null;
    return bytes.toString('utf8');
  } catch {
    return null;
  }
}

/** Collects matching lines (with context) file by file, until the limit or the output cap. */
class GrepSearch {
  readonly output = new BoundedLines();
  matches = 0;
  truncated = false;

  constructor(
    private readonly regex: RegExp,
    private readonly context: number,
    private readonly limit: number,
  ) {}

  /** Searches one file; false once no more results fit. */
  file(path: string, text: string): boolean {
    const lines = splitLines(text);
    let printedUpTo = -1;
    for (let index = 0; index < lines.length; index += 1) {
      if (!this.regex.test(lines[index] ?? '')) continue;
      if (this.matches >= this.limit) {
        this.truncated = true;
        return false;
      }
      const from = Math.max(printedUpTo + 1, index - this.context);
      const apart = printedUpTo === -1 || from > printedUpTo + 1;
      if (this.context > 0 && this.output.lines.length > 0 && apart) this.output.push('--');
      for (let at = from; at <= index + this.context && at < lines.length; at += 1) {
        const separator = at === index || this.regex.test(lines[at] ?? '') ? ':' : '-';
        if (at > index && separator === ':') break;
        if (
          !this.output.push(
            `${path}${separator}${at + 1}${separator}${clipLine(lines[at] ?? '', TOOL_LIMITS.grepMaxLineLength)}`,
          )
        ) {
          this.truncated = true;
          return false;
        }
        printedUpTo = at;
      }
      this.matches += 1;
    }
    return true;
  }
}
