import { graphemeWidth, splitGraphemes } from '@pi/terminal';

/**
 * The editor's units: graphemes, with paste markers split out as units of their own. A paste marker is one
 * code point from Supplementary Private Use Area-A (U+F0000 + paste number) standing in the text for the whole
 * paste, so the cursor steps over it and deletion removes it in one step without any special casing.
 */

export const MARKER_BASE = 0xf0000;
export const MARKER_LAST = 0xffffd;
const TAB_WIDTH = 4;

export function isMarker(segment: string): boolean {
  const code = segment.codePointAt(0) ?? 0;
  return segment.length === 2 && code >= MARKER_BASE && code <= MARKER_LAST;
}

/** Graphemes of the text, with a marker never merged into a neighbouring grapheme. */
export function editorSegments(text: string): string[] {
  const out: string[] = [];
  for (const grapheme of splitGraphemes(text)) {
    if (grapheme.length <= 2 || !/[\u{f0000}-\u{ffffd}]/u.test(grapheme)) {
      out.push(grapheme);
      continue;
    }
    // A combining mark after a marker would join it: split the marker out again.
    for (const part of grapheme.split(/([\u{f0000}-\u{ffffd}])/u)) if (part !== '') out.push(part);
  }
  return out;
}

/** Columns a segment takes in the editor; markers take their label's width, a tab four columns. */
export function segmentWidth(segment: string, markerWidth: (marker: string) => number): number {
  if (isMarker(segment)) return markerWidth(segment);
  if (segment === '\t') return TAB_WIDTH;
  return graphemeWidth(segment);
}

/** What the segment looks like on screen (before styling). */
export function segmentDisplay(segment: string): string {
  return segment === '\t' ? ' '.repeat(TAB_WIDTH) : segment;
}

/** Offsets of the segment boundaries of `text`, from 0 to text.length. */
export function boundaries(text: string): number[] {
  const out = [0];
  let offset = 0;
  for (const segment of editorSegments(text)) {
    offset += segment.length;
    out.push(offset);
  }
  return out;
}
