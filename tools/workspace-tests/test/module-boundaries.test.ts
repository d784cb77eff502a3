import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FixtureWorkspace, type LintProblem, createFixtureWorkspace } from '../src/index';

// Each case lints one fixture file with the workspace's real oxlint config and constraints (.oxlintrc.json, which
// loads Nx's rule as a JS plugin) against the fixture's own Nx project graph.
const boundaryRule = '@nx/enforce-module-boundaries';

function boundaryProblems(problems: readonly LintProblem[], file: string): string[] {
  return problems.filter((problem) => problem.file === file && problem.ruleId === boundaryRule).map((p) => p.message);
}

describe('module boundaries (real lint over fixture projects)', () => {
  let workspace: FixtureWorkspace;
  let problems: LintProblem[];

  beforeAll(async () => {
    workspace = await createFixtureWorkspace('boundaries');
    const graph = await workspace.nx(['show', 'projects']);
    expect(graph.code, graph.stderr).toBe(0);
    expect(graph.stdout).toContain('@fixture/demo-tui');
    problems = await workspace.lint(['libs', 'plugins']);
  });

  afterAll(async () => {
    await workspace?.dispose();
  });

  it('fails a presentation project that imports a session project', () => {
    expect(boundaryProblems(problems, 'libs/tui-view/src/imports-session.ts')).toEqual([
      'A project tagged with "scope:presentation" can only depend on libs tagged with "scope:shared", "scope:presentation"',
    ]);
  });

  it('fails a shared project that imports a project outside scope:shared', () => {
    expect(boundaryProblems(problems, 'libs/leaky-contract/src/index.ts')).toEqual([
      'A project tagged with "scope:shared" can only depend on libs tagged with "scope:shared"',
    ]);
  });

  it('passes a presentation project that imports a shared project', () => {
    expect(problems.filter((problem) => problem.file === 'libs/tui-view/src/imports-shared.ts')).toEqual([]);
  });

  it("fails a plugin's TUI facet that imports the session facet of the same feature", () => {
    expect(boundaryProblems(problems, 'plugins/demo/tui/src/imports-session-facet.ts')).toContain(
      'A project tagged with "scope:presentation" can only depend on libs tagged with "scope:shared", "scope:presentation"',
    );
  });

  it('fails a session project that imports a presentation project', () => {
    expect(boundaryProblems(problems, 'plugins/demo/session/src/imports-tui.ts')).toContain(
      'A project tagged with "scope:session" can only depend on libs tagged with "scope:shared", "scope:session"',
    );
  });

  it('fails product code that imports a test-support project', () => {
    expect(boundaryProblems(problems, 'libs/session-util/src/imports-test-kit.ts')).toEqual([
      'A project tagged with "type:util" can only depend on libs tagged with "type:util"',
    ]);
  });

  it('passes a test file that imports a test-support project', () => {
    expect(problems.filter((problem) => problem.file === 'libs/session-util/src/index.test.ts')).toEqual([]);
  });

  it("passes a plugin's TUI facet that imports its own contract", () => {
    expect(problems.filter((problem) => problem.file === 'plugins/demo/tui/src/imports-contract.ts')).toEqual([]);
  });

  it('reports nothing else in the fixture', () => {
    const expectedFiles = [
      'libs/tui-view/src/imports-session.ts',
      'libs/leaky-contract/src/index.ts',
      'plugins/demo/tui/src/imports-session-facet.ts',
      'plugins/demo/session/src/imports-tui.ts',
      'libs/session-util/src/imports-test-kit.ts',
    ];
    expect(problems.filter((problem) => !expectedFiles.includes(problem.file))).toEqual([]);
  });
});
