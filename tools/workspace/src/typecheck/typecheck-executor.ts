import type { ExecutorContext, TaskGraph } from '@nx/devkit';
import { printOutcomes, projectRootOf, taskResults, taskRoots, type TaskResult } from '../project-batch';
import { checkSolution } from './solution-typecheck';

/** `typecheck` of one project: `tsc --build` of its tsconfig.json (the projects it references first, if stale). */
export default async function typecheck(_options: unknown, context: ExecutorContext): Promise<{ success: boolean }> {
  return printOutcomes(await checkSolution(context.root, [projectRootOf(context)]));
}

/**
 * `typecheck` of many projects in one `tsc --build` (Nx's batch mode): the compiler checks the solution once, in
 * parallel, and each task is answered with the errors in its own project's files.
 */
export async function* typecheckBatch(
  taskGraph: TaskGraph,
  _inputs: Record<string, unknown>,
  _overrides: unknown,
  context: ExecutorContext,
): AsyncGenerator<{ task: string; result: TaskResult }> {
  yield* taskResults(taskGraph, await checkSolution(context.root, taskRoots(taskGraph)));
}
