import type { ExecutorContext, TaskGraph } from '@nx/devkit';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ProjectOutcome } from '../project-batch';
import { BATCH_TYPECHECK_DONE, batchTypecheckFinished } from '../typecheck/batch-typecheck';
import { checkBatchOf, type Check, type CheckKind, type CheckOptions } from './check-executor';

/** A batch of these checks, one task each for the project at `libs/a`. */
function batchOf(kinds: readonly CheckKind[]) {
  const tasks = Object.fromEntries(
    kinds.map((kind) => [kind, { id: kind, projectRoot: 'libs/a', target: { project: 'a', target: kind } }]),
  );
  const taskGraph = { tasks, dependencies: {}, roots: [...kinds] } as unknown as TaskGraph;
  const inputs = Object.fromEntries(kinds.map((kind) => [kind, { check: kind }])) as Record<string, CheckOptions>;
  return { taskGraph, inputs, context: { root: '/workspace' } as ExecutorContext };
}

const passed = (roots: readonly string[]): ProjectOutcome[] =>
  roots.map((root) => ({ root, success: true, output: '' }));

describe('the checks of a batch', () => {
  // vitest puts back the value the variable had at the stub, whatever the code under test set since.
  beforeEach(() => void vi.stubEnv(BATCH_TYPECHECK_DONE, process.env[BATCH_TYPECHECK_DONE]));
  afterEach(() => void vi.unstubAllEnvs());

  it("let the tests wait for the batch's type check, which they see finished only after it answered", async () => {
    const outer = process.env[BATCH_TYPECHECK_DONE];
    const events: string[] = [];
    let answerTypecheck: (() => void) | undefined;
    const typecheckAnswered = new Promise<void>((resolve) => (answerTypecheck = resolve));
    const tools: Record<CheckKind, Check> = {
      format: async (_root, roots) => passed(roots),
      lint: async (_root, roots) => passed(roots),
      typecheck: async (_root, roots) => {
        await typecheckAnswered;
        events.push('typecheck answered');
        return passed(roots);
      },
      test: async (_root, roots) => {
        events.push(`tests started, signal ${process.env[BATCH_TYPECHECK_DONE] === undefined ? 'absent' : 'present'}`);
        const finished = batchTypecheckFinished().then(() => events.push('tests saw the type check finished'));
        answerTypecheck?.();
        await finished;
        return passed(roots);
      },
    };
    const { taskGraph, inputs, context } = batchOf(['lint', 'typecheck', 'test']);
    const results: Record<string, boolean> = {};
    for await (const { task, result } of checkBatchOf(tools)(taskGraph, inputs, {}, context))
      results[task] = result.success;
    expect(results).toEqual({ lint: true, typecheck: true, test: true });
    expect(events).toEqual([
      'tests started, signal present',
      'typecheck answered',
      'tests saw the type check finished',
    ]);
    expect(process.env[BATCH_TYPECHECK_DONE]).toBe(outer);
  });

  it('announce no type check to tests in a batch without one, even when an outer batch did', async () => {
    process.env[BATCH_TYPECHECK_DONE] = '/an/outer/batch/done';
    let seen: string | undefined = 'not run';
    const notInTheBatch: Check = () => Promise.reject(new Error('not in this batch'));
    const tools: Record<CheckKind, Check> = {
      format: notInTheBatch,
      lint: notInTheBatch,
      typecheck: notInTheBatch,
      test: async (_root, roots) => {
        seen = process.env[BATCH_TYPECHECK_DONE];
        await batchTypecheckFinished();
        return passed(roots);
      },
    };
    const { taskGraph, inputs, context } = batchOf(['test']);
    for await (const { result } of checkBatchOf(tools)(taskGraph, inputs, {}, context))
      expect(result.success).toBe(true);
    expect(seen).toBeUndefined();
    expect(process.env[BATCH_TYPECHECK_DONE]).toBe('/an/outer/batch/done');
  });
});
