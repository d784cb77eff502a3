import { sep } from 'node:path';
import type { ExecutorContext, Task } from '@nx/devkit';

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

/** The values of these iterables as each comes, whichever gives one first; done when all of them are. */
export async function* merged<T>(sources: readonly AsyncIterable<T>[]): AsyncGenerator<T> {
  const iterators = sources.map((source) => source[Symbol.asyncIterator]());
  const next = (iterator: AsyncIterator<T>, index: number) =>
    iterator.next().then((result) => ({ iterator, index, result }));
  const pending = new Map(iterators.map((iterator, index) => [index, next(iterator, index)]));
  while (pending.size > 0) {
    const { iterator, index, result } = await Promise.race(pending.values());
    if (result.done === true) {
      pending.delete(index);
    } else {
      pending.set(index, next(iterator, index));
      yield result.value;
    }
  }
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

/** Each outcome as the result of these tasks for its project, yielded as it comes so Nx prints it then. */
export async function* taskResults(
  tasks: readonly Task[],
  outcomes: AsyncIterable<ProjectOutcome> | Iterable<ProjectOutcome>,
): AsyncGenerator<{ task: string; result: TaskResult }> {
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
