import { join } from 'node:path';
import type { ExecutorContext, TaskGraph } from '@nx/devkit';
import { printOutcomes, projectRootOf, type TaskResult } from '../project-batch';
import { checkSolution } from './solution-typecheck';

/** `typecheck` of one project: `tsc --build` of its tsconfig.json (the projects it references first, if stale). */
export default function typecheck(_options: unknown, context: ExecutorContext): Promise<{ success: boolean }> {
  const config = join(context.root, projectRootOf(context), 'tsconfig.json');
  return printOutcomes([...checkSolution([config])].map((checked) => ({ root: checked.config, ...checked })));
}

/**
 * `typecheck` of many projects in one process and one pass of the solution builder (Nx's batch mode): each task is
 * yielded as its project is checked (so that Nx prints its output as it prints a single task's), and a project the
 * builder found up to date passes with nothing to say.
 */
export async function* typecheckBatch(
  taskGraph: TaskGraph,
  _inputs: Record<string, unknown>,
  _overrides: unknown,
  context: ExecutorContext,
): AsyncGenerator<{ task: string; result: TaskResult }> {
  const taskOf = new Map(
    Object.values(taskGraph.tasks).map((task) => [
      join(context.root, task.projectRoot ?? '', 'tsconfig.json'),
      task.id,
    ]),
  );
  const reported = new Set<string>();
  let started = Date.now();
  for (const checked of checkSolution([...taskOf.keys()])) {
    const task = taskOf.get(checked.config);
    if (task === undefined) continue; // a referenced project outside the batch, rebuilt because it was stale
    reported.add(task);
    yield {
      task,
      result: { success: checked.success, terminalOutput: checked.output, startTime: started, endTime: Date.now() },
    };
    started = Date.now();
  }
  for (const task of taskOf.values()) {
    if (!reported.has(task)) yield { task, result: { success: true, terminalOutput: '' } };
  }
}
