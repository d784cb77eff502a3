import type { ExecutorContext, TaskGraph } from '@nx/devkit';
import { printOutcomes, projectRootOf, taskResults, taskRoots, type TaskResult } from '../project-batch';
import { runProjectTests, type ProjectTestOptions } from './project-tests';

/** `test` of one project: its vitest config's tests, as `vitest run` there does. */
export default function test(options: ProjectTestOptions, context: ExecutorContext): Promise<{ success: boolean }> {
  return printOutcomes(runProjectTests(context.root, [projectRootOf(context)], options));
}

/**
 * `test` of many projects in one vitest instance (Nx's batch mode). Each project is yielded as soon as its files have
 * run, so Nx prints and caches it while the others go on.
 */
export async function* testBatch(
  taskGraph: TaskGraph,
  inputs: Record<string, ProjectTestOptions>,
  overrides: ProjectTestOptions,
  context: ExecutorContext,
): AsyncGenerator<{ task: string; result: TaskResult }> {
  const options = { ...Object.values(inputs)[0], ...overrides };
  yield* taskResults(taskGraph, runProjectTests(context.root, taskRoots(taskGraph), options));
}
