import { editorSegments, segmentWidth } from './segments';

/**
 * Lays the editor's text out in rows of a given width: logical lines split at `\n`, then word-wrapped after
 * spaces (a word longer than a row is broken between graphemes). The last column is kept for the cursor and
 * for one space at a break, so the cursor never falls off the right edge and rows never overflow.
 */

/** A place the cursor can stand, as a text offset and the column it shows at. */
export interface CursorStop {
  readonly offset: number;
  readonly col: number;
}

export interface VisualRow {
  readonly segments: readonly string[];
  /** Where the cursor may stand on this row, left to right. A soft-wrapped row's end belongs to the next row. */
  readonly stops: readonly CursorStop[];
}

export interface Layout {
  readonly width: number;
  readonly rows: readonly VisualRow[];
}

export function layoutText(text: string, width: number, markerWidth: (marker: string) => number): Layout {
  const columns = Math.max(2, Math.floor(width));
  const rows: VisualRow[] = [];
  let lineStart = 0;
  for (const line of text.split('\n')) {
    rows.push(...layoutLine(line, lineStart, columns, markerWidth));
    lineStart += line.length + 1;
  }
  return { width: columns, rows };
}

function layoutLine(line: string, start: number, width: number, markerWidth: (m: string) => number): VisualRow[] {
  const segments = editorSegments(line);
  const widths = segments.map((s) => segmentWidth(s, markerWidth));
  const content = width - 1;
  const cuts: number[] = []; // segment indexes where a new row starts
  let rowStart = 0;
  let rowWidth = 0;
  let breakAt = -1; // index just after the last space on this row
  const cut = (at: number): void => {
    cuts.push(at);
    rowStart = at;
    rowWidth = 0;
    breakAt = -1;
  };
  segments.forEach((segment, i) => {
    const w = widths[i] ?? 0;
    if (segment === ' ') {
      if (rowWidth + w <= content) {
        rowWidth += w;
        breakAt = i + 1;
      } else if (rowWidth + w <= width) {
        cut(i + 1); // the space hangs in the last column
      } else {
        cut(i);
        rowWidth = w;
        breakAt = i + 1;
      }
      return;
    }
    if (rowWidth + w > content && breakAt > rowStart) {
      const carried = widths.slice(breakAt, i).reduce((sum, x) => sum + x, 0);
      cut(breakAt);
      rowWidth = carried;
    }
    if (rowWidth + w > content && i > rowStart) cut(i);
    rowWidth += w;
  });
  const bounds = [0, ...cuts, segments.length];
  const offsets = [start];
  for (const segment of segments) offsets.push((offsets[offsets.length - 1] ?? start) + segment.length);
  const rows: VisualRow[] = [];
  for (let r = 0; r + 1 < bounds.length; r++) {
    const from = bounds[r] ?? 0;
    const to = bounds[r + 1] ?? 0;
    const last = r + 2 === bounds.length;
    const stops: CursorStop[] = [];
    let col = 0;
    for (let i = from; i <= to; i++) {
      if (i === to && !last) break;
      stops.push({ offset: offsets[i] ?? start, col });
      col += widths[i] ?? 0;
    }
    rows.push({ segments: segments.slice(from, to), stops });
  }
  return rows;
}

/** The row and column where the cursor at `offset` shows. */
export function locate(layout: Layout, offset: number): { row: number; col: number } {
  for (let row = 0; row < layout.rows.length; row++) {
    const stop = layout.rows[row]?.stops.find((s) => s.offset === offset);
    if (stop !== undefined) return { row, col: stop.col };
  }
  return { row: Math.max(0, layout.rows.length - 1), col: 0 };
}

/** The offset on a row closest to `col` without passing it. */
export function offsetAtColumn(row: VisualRow, col: number): number {
  let best = row.stops[0];
  for (const stop of row.stops) if (stop.col <= col) best = stop;
  return best?.offset ?? 0;
}
