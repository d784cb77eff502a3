/** Rows `top`..`bottom` (inclusive, from 0) of the screen move up by `by`; the `by` rows freed at the bottom are blank. */
export interface RegionScroll {
  readonly top: number;
  readonly bottom: number;
  readonly by: number;
}

/**
 * The scroll that saves a frame the most rows, when its rows are the rows on screen moved up inside a region (the
 * transcript above the editor moving up a row per line of answer); undefined when none saves a row. `shown` holds
 * the line on each row (undefined: not known, never moved). A row counts as saved when, scrolled, it needs no
 * drawing though it differs from what is on its row now; a row below the region's moved rows that was unchanged
 * counts against, since the scroll blanks it.
 */
export function findRegionScroll(
  shown: readonly (string | undefined)[],
  next: readonly string[],
  rows: number,
): RegionScroll | undefined {
  const lineAt = (y: number) => next[y] ?? '';
  // A scroll saves drawing only where at least two rows changed (one moved up, one freed); typing changes one.
  let changed = 0;
  for (let y = 0; y < rows && changed < 2; y++) if (lineAt(y) !== shown[y]) changed += 1;
  if (changed < 2) return undefined;
  let best: RegionScroll | undefined;
  let bestGain = 0;
  for (let by = 1; by < rows; by++) {
    let y = 0;
    while (y < rows - by) {
      // A run of rows whose next line is the line shown `by` rows below.
      if (shown[y + by] === undefined || lineAt(y) !== shown[y + by]) {
        y += 1;
        continue;
      }
      const top = y;
      let saved = 0;
      for (; y < rows - by && shown[y + by] !== undefined && lineAt(y) === shown[y + by]; y++)
        if (lineAt(y) !== shown[y]) saved += 1;
      const bottom = y - 1 + by;
      // The rows the scroll frees: drawn again unless they are to be blank.
      for (let freed = y; freed <= bottom; freed++)
        if (lineAt(freed) !== '' && lineAt(freed) === shown[freed]) saved -= 1;
      if (saved > bestGain) {
        bestGain = saved;
        best = { top, bottom, by };
      }
    }
  }
  return best;
}
