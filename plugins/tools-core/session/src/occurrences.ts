/** Where a text occurs: its offset and the 1-based line it starts on. */
export interface Occurrence {
  readonly index: number;
  readonly line: number;
}

/** Every non-overlapping occurrence of `needle` (non-empty) in `text`, in order. */
export function findOccurrences(text: string, needle: string): Occurrence[] {
  const found: Occurrence[] = [];
  let line = 1;
  let lineCountedTo = 0;
  for (let index = text.indexOf(needle); index !== -1; index = text.indexOf(needle, index + needle.length)) {
    for (let at = text.indexOf('\n', lineCountedTo); at !== -1 && at < index; at = text.indexOf('\n', at + 1)) {
      line += 1;
      lineCountedTo = at + 1;
    }
    found.push({ index, line });
  }
  return found;
}

/** `text` with each occurrence replaced by `replacement` literally (no `$&` patterns, unlike String.replace). */
export function replaceOccurrences(
  text: string,
  needle: string,
  replacement: string,
  occurrences: readonly Occurrence[],
): string {
  let out = '';
  let from = 0;
  for (const { index } of occurrences) {
    out += text.slice(from, index) + replacement;
    from = index + needle.length;
  }
  return out + text.slice(from);
}
