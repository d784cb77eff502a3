import { err, ok, type Result } from 'neverthrow';
import { z } from 'zod';
import type { SessionEntry, SessionHeader } from '@pi/agent-contract';
import { sessionEntrySchema, sessionHeaderSchema } from './entry-schema';

export interface ParsedSessionFile {
  /** Null when the file is empty or held only a torn header: the caller starts it afresh. */
  header: SessionHeader | null;
  entries: SessionEntry[];
  /** A final line left by a crash mid-write; the file is to be cut back to `offset`. */
  tornTail: { offset: number; bytes: number } | null;
}

/** Line numbers count from 1; the header is line 1. */
export type ParseFailure = { line: number; message: string };

const NEWLINE = 0x0a;

/**
 * Reads a session file's bytes. Only the LAST line may be torn — unterminated (the write that would have
 * ended it never finished, so nobody was told it succeeded) or not JSON at all (a crash can leave zeroed
 * blocks at the end of a file). Anything wrong earlier is corruption we must not paper over.
 */
export function parseSessionFile(bytes: Uint8Array): Result<ParsedSessionFile, ParseFailure> {
  const lines = splitLines(bytes);
  const last = lines[lines.length - 1];
  let tornTail: ParsedSessionFile['tornTail'] = null;
  if (last !== undefined && (!last.terminated || parseJson(last.text) === undefined)) {
    tornTail = { offset: last.start, bytes: bytes.length - last.start };
    lines.pop();
  }
  const [headerLine, ...entryLines] = lines;
  if (headerLine === undefined) return ok({ header: null, entries: [], tornTail });

  const header = sessionHeaderSchema.safeParse(parseJson(headerLine.text));
  if (!header.success)
    return err({ line: 1, message: `line 1 is not a session header: ${z.prettifyError(header.error)}` });

  const entries: SessionEntry[] = [];
  const ids = new Set<string>();
  for (const [index, line] of entryLines.entries()) {
    const lineNumber = index + 2;
    const json = parseJson(line.text);
    if (json === undefined) return err({ line: lineNumber, message: `line ${lineNumber} is not valid JSON` });
    const entry = sessionEntrySchema.safeParse(json);
    if (!entry.success) {
      return err({
        line: lineNumber,
        message: `line ${lineNumber} is not a session entry: ${z.prettifyError(entry.error)}`,
      });
    }
    if (ids.has(entry.data.id))
      return err({ line: lineNumber, message: `line ${lineNumber} repeats entry id ${entry.data.id}` });
    if (entry.data.parentId !== null && !ids.has(entry.data.parentId)) {
      return err({
        line: lineNumber,
        message: `line ${lineNumber} names a parent ${entry.data.parentId} that no earlier line holds`,
      });
    }
    ids.add(entry.data.id);
    entries.push(entry.data);
  }
  return ok({ header: header.data, entries, tornTail });
}

interface Line {
  start: number;
  text: string;
  terminated: boolean;
}

function splitLines(bytes: Uint8Array): Line[] {
  const decoder = new TextDecoder();
  const lines: Line[] = [];
  let start = 0;
  while (start < bytes.length) {
    const newline = bytes.indexOf(NEWLINE, start);
    const end = newline === -1 ? bytes.length : newline;
    lines.push({ start, text: decoder.decode(bytes.subarray(start, end)), terminated: newline !== -1 });
    start = end + 1;
  }
  return lines;
}

/** undefined for text that is not JSON (JSON itself has no undefined, so the marker is unambiguous). */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
