import type { ExecutorContext, TaskGraph } from '@nx/devkit';
import {
  merged,
  printOutcomes,
  projectRootOf,
  taskResults,
  type ProjectOutcome,
  type TaskResult,
} from '../project-batch';
import { lintProjects } from '../lint/project-lint';
import { announceBatchTypecheck } from '../typecheck/batch-typecheck';
import { checkSolution } from '../typecheck/solution-typecheck';
import { runProjectTests, type ProjectTestOptions } from '../test/project-tests';
import { checkFormatting } from './formatting';
import { testsWithBundles } from './tests-with-bundles';

/** What a target checks; each inferred target (and the workspace's `format-check`) names its own. */
export type CheckKind = 'format' | 'lint' | 'typecheck' | 'test';

export interface CheckOptions extends ProjectTestOptions {
  readonly check: CheckKind;
}

type Outcomes = AsyncIterable<ProjectOutcome> | Promise<Iterable<ProjectOutcome>>;

/** Whether a check's tool has the cores to itself, or shares them with the other tools of its batch. */
interface Company {
  readonly alone: boolean;
}

export type Check = (workspaceRoot: string, roots: string[], options: CheckOptions, company: Company) => Outcomes;

/** Each check over the projects at these roots, all in one tool run. */
const checks: Record<CheckKind, Check> = {
  format: checkFormatting,
  lint: lintProjects,
  // Beside other tools the cores are busy anyway, and one thread checks the solution in less CPU time.
  typecheck: (workspaceRoot, roots, _options, { alone }) =>
    checkSolution(workspaceRoot, roots, { singleThreaded: !alone }),
  test: (workspaceRoot, roots, options) => testsWithBundles(workspaceRoot, roots, options, runProjectTests),
};

/** One project's check, as its tool run in that project would do it. */
export default function check(options: CheckOptions, context: ExecutorContext): Promise<{ success: boolean }> {
  const outcomes = checks[options.check](context.root, [projectRootOf(context)], options, { alone: true });
  return printOutcomes(outcomesOf(outcomes));
}

/**
 * Every check of a run in one batch (Nx's batch mode), the tools side by side: Nx runs one batch at a time, so with an
 * executor per tool the tests waited for lint while a core stood idle. Each kind of check is still one tool run for
 * all its projects (one oxlint, one `tsc --build`, one vitest instance), and each task is answered as soon as its
 * tool has answered for its project. When the batch type-checks and tests, its tests can wait for the type check
 * (`batchTypecheckFinished`): the packer's tests build the declarations it writes.
 */
export const checkBatch = checkBatchOf(checks);

/** `checkBatch` with these tools (its tests give it stand-ins). */
export function checkBatchOf(tools: Record<CheckKind, Check>) {
  return async function* (
    taskGraph: TaskGraph,
    inputs: Record<string, CheckOptions>,
    overrides: Partial<CheckOptions>,
    context: ExecutorContext,
  ): AsyncGenerator<{ task: string; result: TaskResult }> {
    const byKind = new Map<CheckKind, { tasks: TaskGraph['tasks'][string][]; options: CheckOptions }>();
    for (const task of Object.values(taskGraph.tasks)) {
      const own = inputs[task.id];
      if (own === undefined) throw new Error(`No options for the task ${task.id}`);
      const group = byKind.get(own.check) ?? { tasks: [], options: { ...own, ...overrides, check: own.check } };
      group.tasks.push(task);
      byKind.set(own.check, group);
    }
    const typecheck = await announceBatchTypecheck(byKind.has('typecheck') && byKind.has('test'));
    try {
      yield* merged(
        [...byKind].map(([kind, { tasks, options }]) => {
          const roots = tasks.map((task) => task.projectRoot ?? '.');
          const company = { alone: byKind.size === 1 };
          const outcomes = outcomesOf(tools[kind](context.root, roots, options, company));
          return taskResults(tasks, kind === 'typecheck' ? finishing(outcomes, () => typecheck.finish()) : outcomes);
        }),
      );
    } finally {
      await typecheck[Symbol.asyncDispose]();
    }
  };
}

/** The outcomes, then `finish` once the last has been taken. */
async function* finishing<T>(outcomes: AsyncIterable<T>, finish: () => Promise<void>): AsyncGenerator<T> {
  try {
    yield* outcomes;
  } finally {
    await finish();
  }
}

async function* outcomesOf(outcomes: Outcomes): AsyncGenerator<ProjectOutcome> {
  yield* await outcomes;
}
