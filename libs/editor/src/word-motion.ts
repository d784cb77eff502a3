import { editorSegments, isMarker } from './segments';

/**
 * Word boundaries for Ctrl/Alt+Left/Right and word deletion: a word is a run of letters, digits and
 * underscores, or a run of other punctuation; whitespace between runs is skipped; a paste marker is a word.
 */
type Kind = 'space' | 'word' | 'punctuation' | 'marker';

function kindOf(segment: string): Kind {
  if (isMarker(segment)) return 'marker';
  if (/^\s+$/u.test(segment)) return 'space';
  if (/^[\p{L}\p{N}\p{M}_]/u.test(segment)) return 'word';
  return 'punctuation';
}

/** Offset of the start of the word before `offset`. */
export function wordLeft(text: string, offset: number): number {
  const segments = editorSegments(text.slice(0, offset));
  let i = segments.length - 1;
  let at = offset;
  while (i >= 0 && kindOf(segments[i] ?? '') === 'space') at -= (segments[i--] ?? '').length;
  const kind = kindOf(segments[i] ?? '');
  if (i >= 0 && kind === 'marker') return at - (segments[i] ?? '').length;
  while (i >= 0 && kindOf(segments[i] ?? '') === kind) at -= (segments[i--] ?? '').length;
  return at;
}

/** Offset of the end of the word after `offset`. */
export function wordRight(text: string, offset: number): number {
  const segments = editorSegments(text.slice(offset));
  let i = 0;
  let at = offset;
  while (i < segments.length && kindOf(segments[i] ?? '') === 'space') at += (segments[i++] ?? '').length;
  const kind = kindOf(segments[i] ?? '');
  if (i < segments.length && kind === 'marker') return at + (segments[i] ?? '').length;
  while (i < segments.length && kindOf(segments[i] ?? '') === kind) at += (segments[i++] ?? '').length;
  return at;
}
