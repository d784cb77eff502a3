import { z } from 'zod';

/*
 * The structured details of each coding tool's successful result, for renderers. Type aliases rather than
 * interfaces, so they are assignable where a JSON value is expected. Paths are relative to the session's working
 * directory (`.` for itself), with `/` separators.
 */

/** `read`: which lines of how many were shown. `startLine`/`endLine` are 1-based and inclusive (0, 0 when none). */
export type ReadDetails = {
  path: string;
  startLine: number;
  endLine: number;
  totalLines: number;
  /** True when lines after `endLine` exist that were not shown (a limit, or the output cap). */
  truncated: boolean;
  /** The bracketed line at the end of the text (how to continue), or null. */
  notice: string | null;
};

/** `write` and `edit`: the change as a unified diff (cut at a size, then `diffTruncated`). */
export type FileChangeDetails = {
  path: string;
  /** `write` only: the file did not exist before. */
  created: boolean;
  /** How many occurrences were replaced (`edit`); 0 for `write`. */
  replacements: number;
  diff: string;
  added: number;
  removed: number;
  diffTruncated: boolean;
};

/** `ls`, `find` and `grep`: what was listed or searched, and how many lines of results came back. */
export type ListingDetails = {
  path: string;
  /** The glob (`find`) or regular expression (`grep`); null for `ls`. */
  pattern: string | null;
  /** Entries (`ls`), files (`find`) or matching lines (`grep`) shown. */
  count: number;
  truncated: boolean;
  notice: string | null;
};

/** `bash`: how the command ended. `exitCode` is null when a signal ended it. */
export type BashDetails = {
  command: string;
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  aborted: boolean;
  /** True when output was dropped (the start of it: the tail is kept). */
  truncated: boolean;
  notice: string | null;
};

const count = z.number().int().min(0);

export const readDetailsSchema: z.ZodType<ReadDetails> = z.object({
  path: z.string(),
  startLine: count,
  endLine: count,
  totalLines: count,
  truncated: z.boolean(),
  notice: z.string().nullable(),
});

export const fileChangeDetailsSchema: z.ZodType<FileChangeDetails> = z.object({
  path: z.string(),
  created: z.boolean(),
  replacements: count,
  diff: z.string(),
  added: count,
  removed: count,
  diffTruncated: z.boolean(),
});

export const listingDetailsSchema: z.ZodType<ListingDetails> = z.object({
  path: z.string(),
  pattern: z.string().nullable(),
  count,
  truncated: z.boolean(),
  notice: z.string().nullable(),
});

export const bashDetailsSchema: z.ZodType<BashDetails> = z.object({
  command: z.string(),
  exitCode: z.number().int().nullable(),
  signal: z.string().nullable(),
  timedOut: z.boolean(),
  aborted: z.boolean(),
  truncated: z.boolean(),
  notice: z.string().nullable(),
});
