import type { ExecutorContext, TaskGraph } from '@nx/devkit';
import { printOutcomes, projectRootOf, taskResults, taskRoots, type TaskResult } from '../project-batch';
import { lintProjects } from './project-lint';

/** `lint` of one project: ESLint over its folder with the workspace's config, as `eslint .` there does. */
export default async function lint(_options: unknown, context: ExecutorContext): Promise<{ success: boolean }> {
  return printOutcomes(await lintProjects(context.root, [projectRootOf(context)]));
}

/** `lint` of many projects in one process and one ESLint run (Nx's batch mode). */
export async function* lintBatch(
  taskGraph: TaskGraph,
  _inputs: Record<string, unknown>,
  _overrides: unknown,
  context: ExecutorContext,
): AsyncGenerator<{ task: string; result: TaskResult }> {
  yield* taskResults(taskGraph, await lintProjects(context.root, taskRoots(taskGraph)));
}
