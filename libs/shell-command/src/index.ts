export { OutputTail, formatBytes, type CommandOutput } from './output-tail';
export { endProcessGroup, groupAlive } from './process-group';
export { runCommand, type CommandEnd, type RunCommandOptions, type SpawnFailure } from './run-command';
