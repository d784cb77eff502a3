import { z } from 'zod';

/** Why a coding tool did nothing. Each failed result says so in its text and carries the code in its details. */
export const TOOL_FAILURE_CODES = {
  /** The path leaves the session's working directory (`..`, an absolute path elsewhere, a symlink pointing out). */
  outside_workspace: 'outside_workspace',
  not_found: 'not_found',
  not_a_file: 'not_a_file',
  not_a_directory: 'not_a_directory',
  /** `read` shows text only. */
  binary_file: 'binary_file',
  /** `edit`: the text to replace is not in the file. */
  no_match: 'no_match',
  /** `edit`: the text to replace is in the file more than once and `replaceAll` was not set. */
  ambiguous_match: 'ambiguous_match',
  /** `edit`: the replacement is the text itself. */
  no_change: 'no_change',
  /** An argument the schema allowed but the tool cannot use (an invalid regular expression, an empty `oldText`). */
  invalid_argument: 'invalid_argument',
  /** `bash`: the shell could not be started. */
  spawn_failed: 'spawn_failed',
  /** The call was aborted before it finished (nothing more was done after that). */
  aborted: 'aborted',
  /** The file system refused (permissions, a full disk…). */
  io_error: 'io_error',
} as const;

export type ToolFailureCode = (typeof TOOL_FAILURE_CODES)[keyof typeof TOOL_FAILURE_CODES];

/** The details of a result whose tool did nothing: what failed, and the path it concerned when there was one. */
export type ToolFailureDetails = { failure: ToolFailureCode; path: string | null };

export const toolFailureCodeSchema = z.enum(
  Object.values(TOOL_FAILURE_CODES) as [ToolFailureCode, ...ToolFailureCode[]],
);

export const toolFailureDetailsSchema: z.ZodType<ToolFailureDetails> = z.object({
  failure: toolFailureCodeSchema,
  path: z.string().nullable(),
});
