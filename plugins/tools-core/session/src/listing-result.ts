import type { AgentToolResult } from '@pi/plugin-api';
import { withNotice, type ListingDetails } from '@pi/tools-core';
import { TOOL_LIMITS } from './tool-limits';

/** Result lines kept under the output cap, and whether any had to be left out for it. */
export class BoundedLines {
  readonly lines: string[] = [];
  private chars = 0;
  capped = false;

  /** Adds a line unless the cap is reached; false once it is. */
  push(line: string): boolean {
    if (this.capped) return false;
    if (this.chars + line.length + 1 > TOOL_LIMITS.maxOutputChars && this.lines.length > 0) {
      this.capped = true;
      return false;
    }
    this.lines.push(line);
    this.chars += line.length + 1;
    return true;
  }
}

/** The result of `ls`, `find` or `grep`: its lines, then the notice, with details for renderers. */
export function listingResult(
  lines: readonly string[],
  details: Omit<ListingDetails, 'notice'>,
  notice: string | null,
): AgentToolResult<ListingDetails> {
  return {
    content: [{ type: 'text', text: withNotice(lines.join('\n'), notice) }],
    details: { ...details, notice },
  };
}

/** The notice of a listing cut by the output cap. */
export const OUTPUT_CAP_NOTICE = `output limit ${TOOL_LIMITS.maxOutputChars / 1024} KiB reached`;
