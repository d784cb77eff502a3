import { TOOL_LIMITS } from './tool-limits';

/** One line as a tool shows it: cut at `max` characters with a marker saying so. */
export function clipLine(line: string, max: number = TOOL_LIMITS.maxLineLength): string {
  return line.length <= max ? line : `${line.slice(0, max)} … [line cut at ${max} characters]`;
}

/** `1 thing`, `n things` (or `n <many>`). */
export function plural(n: number, thing: string, many = `${thing}s`): string {
  return `${n} ${n === 1 ? thing : many}`;
}

/** The lines of a text file: `\n` or `\r\n` ends a line; a final line ending does not start another line. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop();
  return lines;
}
