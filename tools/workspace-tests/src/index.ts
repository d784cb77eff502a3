export { createFixtureWorkspace } from './fixture-workspace';
export type { FixtureOptions, FixtureWorkspace } from './fixture-workspace';
export type { LintProblem } from './lint-report';
export { startPiSession, type PiSessionExit, type RunningPiSession } from './pi-session';
export { runTool, tools, type ToolRun } from './run-tool';
export { fixturesRoot, workspaceRoot } from './workspace-root';
