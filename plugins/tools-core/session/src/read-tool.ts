import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { z } from 'zod';
import type { AgentTool } from '@pi/plugin-api';
import { CORE_TOOL_NAMES, withNotice, type ReadDetails, type ToolFailureDetails } from '@pi/tools-core';
import { fileLooksBinary } from './binary-sniff';
import { clipLine, plural } from './text-lines';
import { failureResult, ioFailure, toolFailure } from './tool-failure';
import { TOOL_LIMITS } from './tool-limits';
import { resolveInside } from './workspace-paths';

const readParameters = z.object({
  path: z.string().min(1).describe('The file to read, relative to the working directory'),
  offset: z.number().int().min(1).optional().describe('The line to start at, counting from 1 (default 1)'),
  limit: z
    .number()
    .int()
    .min(1)
    .max(TOOL_LIMITS.readMaxLines)
    .optional()
    .describe(`How many lines to read at most (default ${TOOL_LIMITS.readDefaultLines})`),
});

export type ReadArguments = z.infer<typeof readParameters>;

/** `read`: lines of a text file inside the working directory, paged by offset and limit. */
export function readTool(cwd: string): AgentTool<ReadArguments, ReadDetails | ToolFailureDetails> {
  return {
    name: CORE_TOOL_NAMES.read,
    label: 'Read',
    description: [
      'Read a text file inside the working directory and return its lines as they are (no line numbers).',
      `Returns at most ${TOOL_LIMITS.readDefaultLines} lines or ${TOOL_LIMITS.maxOutputChars / 1024} KiB;`,
      'for a longer file, a notice at the end gives the offset to continue from. Use offset and limit to read',
      `a part of a file. Lines longer than ${TOOL_LIMITS.maxLineLength} characters are cut. Binary files are`,
      'refused; use ls to list a directory.',
    ].join(' '),
    executionMode: 'parallel',
    parameters: readParameters,
    async execute(args, context) {
      const resolved = await resolveInside(cwd, args.path);
      if (resolved.isErr()) return failureResult(resolved.error);
      const { absolute, display } = resolved.value;
      try {
        if ((await stat(absolute)).isDirectory()) {
          return failureResult(toolFailure('not_a_file', `${display} is a directory; use ls to list it.`, display));
        }
        if (await fileLooksBinary(absolute)) {
          const { size } = await stat(absolute);
          return failureResult(
            toolFailure(
              'binary_file',
              `${display} is a binary file (${plural(size, 'byte')}); read shows text files only.`,
              display,
            ),
          );
        }
        const start = args.offset ?? 1;
        const limit = args.limit ?? TOOL_LIMITS.readDefaultLines;
        const window = await readLineWindow(absolute, start, limit, context.abortSignal);
        if (window === 'aborted')
          return failureResult(toolFailure('aborted', `Reading ${display} was aborted.`, display));
        if (window.total > 0 && start > window.total) {
          return failureResult(
            toolFailure(
              'invalid_argument',
              `offset ${start} is past the end of ${display}, which has ${plural(window.total, 'line')}.`,
              display,
            ),
          );
        }
        return readResult(display, start, window);
      } catch (error) {
        return failureResult(ioFailure('read', display, error));
      }
    },
  };
}

interface LineWindow {
  readonly lines: string[];
  readonly total: number;
  /** True when the output cap, not the limit, stopped the window. */
  readonly capped: boolean;
}

/** Streams the file, keeping the lines of the window and counting all, so a file of any size can be paged. */
async function readLineWindow(
  path: string,
  start: number,
  limit: number,
  signal: AbortSignal | undefined,
): Promise<LineWindow | 'aborted'> {
  const input = createReadStream(path, { encoding: 'utf8' });
  const lines: string[] = [];
  let total = 0;
  let chars = 0;
  let capped = false;
  try {
    for await (const line of createInterface({ input, crlfDelay: Infinity })) {
      total += 1;
      if (signal?.aborted === true) return 'aborted';
      if (total < start || capped || lines.length >= limit) continue;
      const shown = clipLine(line);
      if (lines.length > 0 && chars + shown.length + 1 > TOOL_LIMITS.maxOutputChars) {
        capped = true;
        continue;
      }
      lines.push(shown);
      chars += shown.length + 1;
    }
  } finally {
    input.destroy();
  }
  return { lines, total, capped };
}

function readResult(display: string, start: number, window: LineWindow) {
  const { lines, total, capped } = window;
  const end = lines.length === 0 ? 0 : start + lines.length - 1;
  const truncated = end < total;
  let notice: string | null = null;
  if (total === 0) notice = `[${display} is empty]`;
  else if (truncated) {
    const why = capped ? ` (output limit ${TOOL_LIMITS.maxOutputChars / 1024} KiB)` : '';
    notice = `[Showing lines ${start}-${end} of ${total}${why}. Use offset=${end + 1} to continue.]`;
  }
  const details: ReadDetails = {
    path: display,
    startLine: lines.length === 0 ? 0 : start,
    endLine: end,
    totalLines: total,
    truncated,
    notice,
  };
  return { content: [{ type: 'text' as const, text: withNotice(lines.join('\n'), notice) }], details };
}
