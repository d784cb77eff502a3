import type { TrailStep } from './draft';
import type { DraftRecord } from './draft-store';

export interface EntriesDiff {
  added: string[];
  removed: string[];
  changed: string[];
}

function sameTrail(left: readonly TrailStep[], right: readonly TrailStep[]): boolean {
  return (
    left.length === right.length &&
    left.every((step, index) => step.owner === right[index]?.owner && step.operation === right[index]?.operation)
  );
}

/**
 * Diffs two replays by id. An entry changed when a different sequence of contributions shaped it
 * (a wrapper came or went) or when `equals` says its value differs.
 */
export function diffEntries<T>(
  previous: ReadonlyMap<string, DraftRecord<T>>,
  next: ReadonlyMap<string, DraftRecord<T>>,
  equals: (left: T, right: T) => boolean,
): EntriesDiff {
  const diff: EntriesDiff = { added: [], removed: [], changed: [] };
  for (const [id, record] of next) {
    const before = previous.get(id);
    if (before === undefined) diff.added.push(id);
    else if (!sameTrail(before.trail, record.trail) || !equals(before.value, record.value)) diff.changed.push(id);
  }
  for (const id of previous.keys()) if (!next.has(id)) diff.removed.push(id);
  return diff;
}
