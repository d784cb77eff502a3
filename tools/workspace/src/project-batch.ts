import { sep } from 'node:path';
import type { ExecutorContext, TaskGraph } from '@nx/devkit';

/** What one tool run gave one project: whether it passed, and the report Nx prints and caches for it. */
export interface ProjectOutcome {
  /** Relative to the workspace root. */
  readonly root: string;
  readonly success: boolean;
  readonly output: string;
}

/** A task's answer in Nx's batch mode. */
export interface TaskResult {
  readonly success: boolean;
  readonly terminalOutput: string;
}

/** The root of the project a single (non-batch) task runs for. */
export function projectRootOf(context: ExecutorContext): string {
  const root = context.projectsConfigurations?.projects[context.projectName ?? '']?.root;
  if (root === undefined) throw new Error(`No project ${context.projectName} in the workspace`);
  return root;
}

/** The project roots of a batch's tasks. */
export function taskRoots(taskGraph: TaskGraph): string[] {
  return Object.values(taskGraph.tasks).map((task) => task.projectRoot ?? '.');
}

/** A single task's run: prints each outcome's report, and passes when all of them did. */
export async function printOutcomes(
  outcomes: AsyncIterable<ProjectOutcome> | Iterable<ProjectOutcome>,
): Promise<{ success: boolean }> {
  let success = true;
  for await (const outcome of outcomes) {
    process.stdout.write(outcome.output);
    success &&= outcome.success;
  }
  return { success };
}

/** Each outcome as the result of the batch's tasks for its project, yielded as it comes so Nx prints it then. */
export async function* taskResults(
  taskGraph: TaskGraph,
  outcomes: AsyncIterable<ProjectOutcome> | Iterable<ProjectOutcome>,
): AsyncGenerator<{ task: string; result: TaskResult }> {
  const tasks = Object.values(taskGraph.tasks);
  for await (const { root, success, output } of outcomes) {
    for (const task of tasks.filter((candidate) => (candidate.projectRoot ?? '.') === root)) {
      yield { task: task.id, result: { success, terminalOutput: output } };
    }
  }
}

/** The innermost of `roots` holding `file` (both relative to the workspace root), if any holds it. */
export function innermostRoot(roots: Iterable<string>, file: string): string | undefined {
  let owner: string | undefined;
  for (const root of roots) {
    if (file.startsWith(root + sep) && (owner === undefined || root.length > owner.length)) owner = root;
  }
  return owner;
}
