import type { ExecutorContext, TaskGraph } from '@nx/devkit';
import { lintProjects } from './project-lint';

interface TaskResult {
  readonly success: boolean;
  readonly terminalOutput: string;
}

/** `lint` of one project: ESLint over its folder with the workspace's config, as `eslint .` there does. */
export default async function lint(_options: unknown, context: ExecutorContext): Promise<{ success: boolean }> {
  const root = context.projectsConfigurations?.projects[context.projectName ?? '']?.root;
  if (root === undefined) throw new Error(`No project ${context.projectName} in the workspace`);
  const linted = (await lintProjects(context.root, [root])).get(root);
  process.stdout.write(linted?.output ?? '');
  return { success: linted?.success ?? false };
}

/**
 * `lint` of many projects in one process and one ESLint run (Nx's batch mode). Each task is yielded, so that Nx prints
 * its report as it prints a single task's.
 */
export async function* lintBatch(
  taskGraph: TaskGraph,
  _inputs: Record<string, unknown>,
  _overrides: unknown,
  context: ExecutorContext,
): AsyncGenerator<{ task: string; result: TaskResult }> {
  const tasks = Object.values(taskGraph.tasks);
  const linted = await lintProjects(
    context.root,
    tasks.map((task) => task.projectRoot ?? '.'),
  );
  for (const task of tasks) {
    const own = linted.get(task.projectRoot ?? '.');
    yield { task: task.id, result: { success: own?.success ?? false, terminalOutput: own?.output ?? '' } };
  }
}
