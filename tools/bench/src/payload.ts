/**
 * The bytes every system moves, so the figures compare like with like: a small JSON call payload, the 1 KB
 * value of a fan-out, and the 1 MB state of a hydration.
 */
export interface CallPayload {
  readonly id: number;
  readonly text: string;
  readonly n: number;
}

export const CALL_PAYLOAD: CallPayload = {
  id: 4217,
  text: 'The quick brown fox jumps over the lazy dog; pack my box with jugs',
  n: 3.25,
};

export interface FanoutValue {
  readonly round: number;
  readonly blob: string;
}

/** About 1 KB of JSON; `round` makes each value differ, since an equal `set()` is not a change. */
export function fanoutValue(round: number): FanoutValue {
  return { round, blob: 'f'.repeat(1000) };
}

export interface BulkFile {
  readonly path: string;
  readonly text: string;
}

export interface BulkValue {
  readonly files: readonly BulkFile[];
}

/** About 1 MB of JSON in 1,000 records, the shape of a workspace listing rather than one long string. */
export function bulkValue(): BulkValue {
  const files: BulkFile[] = [];
  for (let index = 0; index < 1000; index++) {
    files.push({ path: `src/module-${index}/file-${index}.ts`, text: `// ${index}\n`.padEnd(990, 'x') });
  }
  return { files };
}
