export { parseBenchOptions, type BenchOptions } from './bench-options';
export { frameOwner, summarize } from './profile-summary';
export { formatReport } from './report';
export { toJson, type BenchResults, type CallFigures } from './results';
export { SYSTEMS, type SystemName } from './server-process';
export { median, ratio, spread, type Spread } from './stats';
export { checkTargets, type TargetCheck } from './targets';
export { formatSpread, formatTable } from './text-table';
