import type { ExecutorContext, TaskGraph } from '@nx/devkit';
import { runProjectTests, type ProjectTestOptions } from './project-tests';

interface TaskResult {
  readonly success: boolean;
  readonly terminalOutput: string;
}

/** `test` of one project: its vitest config's tests, as `vitest run` there does. */
export default async function test(
  options: ProjectTestOptions,
  context: ExecutorContext,
): Promise<{ success: boolean }> {
  const root = context.projectsConfigurations?.projects[context.projectName ?? '']?.root;
  if (root === undefined) throw new Error(`No project ${context.projectName} in the workspace`);
  let success = false;
  for await (const project of runProjectTests(context.root, [root], options)) {
    process.stdout.write(project.output);
    success = project.success;
  }
  return { success };
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
  const tasks = Object.values(taskGraph.tasks);
  const options = { ...Object.values(inputs)[0], ...overrides };
  const roots = tasks.map((task) => task.projectRoot ?? '.');
  for await (const project of runProjectTests(context.root, roots, options)) {
    for (const task of tasks.filter((candidate) => (candidate.projectRoot ?? '.') === project.root)) {
      yield { task: task.id, result: { success: project.success, terminalOutput: project.output } };
    }
  }
}
