import type { CompletionSource } from '@pi/plugin-api';

/** The part of the prompt a completion replaces: a trigger character and what follows it, up to whitespace. */
export interface CompletionToken {
  readonly trigger: string;
  /** Where the trigger is, in the editor's text. */
  readonly start: number;
  /** Where the token ends: past the cursor, up to the next whitespace (a completion replaces the whole word). */
  readonly end: number;
  /** What follows the trigger up to the cursor: what the source is asked about. */
  readonly query: string;
}

/** Paste markers are private-use characters in the editor's text: a token never spans one. */
const PASTE_MARKER = /[\u{f0000}-\u{ffffd}]/u;

/**
 * The token at the cursor that one of `sources` completes: the word the cursor ends (no whitespace in it) when it
 * starts with a source's trigger — at the prompt's first character only for a `promptStart` source. Undefined
 * when the cursor is in no such word.
 */
export function findToken<Source extends Pick<CompletionSource, 'trigger' | 'position'>>(
  text: string,
  cursor: number,
  sources: readonly Source[],
): { readonly token: CompletionToken; readonly source: Source } | undefined {
  const start = wordStart(text, cursor);
  const source = sources.find(
    (candidate) =>
      text.startsWith(candidate.trigger, start) &&
      start + candidate.trigger.length <= cursor &&
      (candidate.position !== 'promptStart' || start === 0),
  );
  if (source === undefined) return undefined;
  const end = cursor + (/^\S*/u.exec(text.slice(cursor))?.[0].length ?? 0);
  if (PASTE_MARKER.test(text.slice(start, end))) return undefined;
  const token = { trigger: source.trigger, start, end, query: text.slice(start + source.trigger.length, cursor) };
  return { token, source };
}

/** The offset just past the last whitespace before `cursor` (0 when there is none). */
function wordStart(text: string, cursor: number): number {
  let index = cursor;
  while (index > 0 && !/\s/u.test(text[index - 1] ?? '')) index -= 1;
  return index;
}
