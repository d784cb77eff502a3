export { createFrameGenerator, FUZZ_WEIGHTS } from './fuzz/frame-generator';
export { FUZZ_KINDS, type FuzzFrame, type FuzzKind, type FuzzTargets } from './fuzz/fuzz-frame';
export { SeededRandom } from './fuzz/seeded-random';
export { ROW_NAMES, type RowName } from './row-names';
export { judge, type Check, type RowReport, type Verdict } from './row-report';
export { DEFAULT_SEED, USAGE, parseSoakOptions, type SoakOptions } from './soak-options';
export { formatSoakTable, wrap } from './soak-table';
