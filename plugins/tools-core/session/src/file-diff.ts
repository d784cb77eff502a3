import { FILE_HEADERS_ONLY, formatPatch, structuredPatch } from 'diff';
import { splitLines } from './text-lines';
import { TOOL_LIMITS } from './tool-limits';

/** A change to one file as a unified diff (jsdiff), with counts, for the details renderers read. */
export interface FileDiff {
  readonly diff: string;
  readonly added: number;
  readonly removed: number;
  readonly diffTruncated: boolean;
}

/**
 * The unified diff (3 lines of context, `--- path`/`+++ path` headers) between two versions of a file. jsdiff
 * gives up after `diffTimeoutMs` (whole files then count as removed and added, with no diff); a diff longer than
 * `maxDiffChars` is cut at a line. (jsdiff's callback mode would not block, but takes one timer turn per edit:
 * seconds for a new file of 20,000 lines.)
 */
export function fileDiff(path: string, before: string, after: string): FileDiff {
  const patch = structuredPatch(path, path, before, after, undefined, undefined, {
    context: 3,
    timeout: TOOL_LIMITS.diffTimeoutMs,
  });
  if (patch === undefined) {
    return { diff: '', added: splitLines(after).length, removed: splitLines(before).length, diffTruncated: true };
  }
  let added = 0;
  let removed = 0;
  for (const hunk of patch.hunks) {
    for (const line of hunk.lines) {
      if (line.startsWith('+')) added += 1;
      else if (line.startsWith('-')) removed += 1;
    }
  }
  const full = formatPatch(patch, FILE_HEADERS_ONLY);
  if (full.length <= TOOL_LIMITS.maxDiffChars) return { diff: full, added, removed, diffTruncated: false };
  const cut = full.lastIndexOf('\n', TOOL_LIMITS.maxDiffChars);
  return { diff: full.slice(0, cut + 1), added, removed, diffTruncated: true };
}
