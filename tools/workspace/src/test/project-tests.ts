import { writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join, relative } from 'node:path';
import type { Reporter, SerializedError, TestModule, TestSpecification, Vitest } from 'vitest/node';
import { innermostRoot, type ProjectOutcome } from '../project-batch';
import { FILE_DURATIONS, longestFirst, readFileDurations } from './file-order';
import { formatProjectReport, type ReportedError, type ReportedModule } from './project-report';
import { planVitestProjects } from './vitest-projects';

export interface ProjectTestOptions {
  /** Test files run at once; by default `defaultTestWorkers()`. */
  readonly maxWorkers?: number | undefined;
  /**
   * A fresh module graph for every test file (vitest's default). Off by default: a worker reuses the modules it has
   * imported for the next file, where importing them again cost more than half as much as the tests themselves.
   */
  readonly isolate?: boolean | undefined;
  /**
   * Also write what each test file cost here (relative to the workspace root): a JSON array of `FileTiming`, for
   * `npm run test:profile`.
   */
  readonly timingsReport?: string | undefined;
}

/**
 * Test files run at once by default: one more than the cores. Many files spend part of their time waiting on the
 * programs they start, so with one worker per core a fresh-clone run left ~25 % of 2 cores idle; a third worker
 * filled it (docs/decisions.md, "The test run's eighth round"), a fourth gained nothing more.
 */
export function defaultTestWorkers(cores: number = availableParallelism()): number {
  return cores + 1;
}

/** One test file of a run: when it was queued and ended (ms since the run began) and what its parts cost. */
export interface FileTiming {
  /** Relative to the workspace root. */
  readonly file: string;
  readonly queuedAtMs: number;
  readonly endedAtMs: number;
  /** The runner's setup, importing the file (and what it imports), and its hooks and tests. */
  readonly prepareMs: number;
  readonly collectMs: number;
  readonly runMs: number;
  readonly tests: number;
  readonly failed: number;
}

/**
 * Runs the tests of the projects at these roots (relative to the workspace) in one vitest instance, as each project's
 * `vitest.config.ts` says, and yields each project's outcome once its last file has run. One instance instead of one
 * per project: vitest, vite and the transform of the sources every project shares are paid once, one pool of workers
 * spreads all the files over the cores, and projects with equal options share a vitest project (see
 * `planVitestProjects`). Files share a worker's modules (see `isolate`), so a test file that
 * changes a global (an environment variable, fake timers) puts it back. An error that belongs to no file fails the
 * projects still running.
 */
export async function* runProjectTests(
  workspaceRoot: string,
  projectRoots: readonly string[],
  options: ProjectTestOptions = {},
): AsyncGenerator<ProjectOutcome> {
  const { createVitest } = await import('vitest/node');
  const plan = await planVitestProjects(workspaceRoot, projectRoots);
  for (const [root, message] of plan.failures) yield { root, success: false, output: message };
  const roots = projectRoots.filter((root) => !plan.failures.has(root));
  if (roots.length === 0) return;
  const results = new ResultQueue();
  const reporter = new ProjectReporter(workspaceRoot, plan.names, results);
  const durations = await readFileDurations(join(workspaceRoot, FILE_DURATIONS));
  const { BaseSequencer } = await import('vitest/node');
  class LongestFirstSequencer extends BaseSequencer {
    override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
      const placed = files.map((spec) => ({
        spec,
        project: spec.project.name,
        file: relative(workspaceRoot, spec.moduleId),
      }));
      return longestFirst(placed, durations).map(({ spec }) => spec);
    }
  }
  let vitest: Vitest;
  try {
    vitest = await createVitest(
      'test',
      {
        root: workspaceRoot,
        config: false,
        watch: false,
        projects: plan.projects,
        maxWorkers: options.maxWorkers ?? defaultTestWorkers(),
        passWithNoTests: true,
        isolate: options.isolate ?? false,
        sequence: { sequencer: LongestFirstSequencer },
        reporters: [reporter],
      },
      { logLevel: 'error' },
    );
  } catch (error) {
    for (const root of roots) yield { root, success: false, output: `vitest could not start: ${describe(error)}` };
    return;
  }
  const run = vitest
    .start()
    .catch((error: unknown) => reporter.failRun(describe(error)))
    .finally(() => vitest.close())
    .finally(() =>
      options.timingsReport === undefined
        ? undefined
        : writeFile(join(workspaceRoot, options.timingsReport), `${JSON.stringify(reporter.timings())}\n`).catch(
            (error: unknown) => console.error(`The timings report was not written: ${describe(error)}`),
          ),
    )
    .finally(() => results.end());
  yield* results;
  await run;
}

/** Outcomes in the order they are known; the iteration ends when the run has. */
class ResultQueue implements AsyncIterable<ProjectOutcome> {
  readonly #ready: ProjectOutcome[] = [];
  #ended = false;
  #wake: (() => void) | undefined;

  push(result: ProjectOutcome): void {
    this.#ready.push(result);
    this.#wake?.();
  }

  end(): void {
    this.#ended = true;
    this.#wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<ProjectOutcome> {
    for (;;) {
      const next = this.#ready.shift();
      if (next !== undefined) yield next;
      else if (this.#ended) return;
      else await new Promise<void>((wake) => (this.#wake = wake));
    }
  }
}

/**
 * Collects each project's files as they finish and reports the project when its last one has. The last project to
 * finish is held until the run ends, so that an error belonging to no file still fails a project.
 */
class ProjectReporter implements Reporter {
  readonly #workspaceRoot: string;
  readonly #projects: Map<string, { expected: number; modules: ReportedModule[]; errors: ReportedError[] }>;
  readonly #names: ReadonlyMap<string, string>;
  readonly #queue: ResultQueue;
  readonly #logs = new Map<string, string[]>();
  readonly #reported = new Set<string>();
  /** Unhandled errors already given to the project they came from. */
  readonly #attributed = new Set<SerializedError>();
  readonly #startedAt = performance.now();
  readonly #queuedAt = new Map<string, number>();
  readonly #timings: FileTiming[] = [];
  #vitest: Vitest | undefined;

  /** `names`: the projects to report, by root. */
  constructor(workspaceRoot: string, names: ReadonlyMap<string, string>, queue: ResultQueue) {
    this.#workspaceRoot = workspaceRoot;
    this.#names = names;
    this.#projects = new Map([...names.keys()].map((root) => [root, { expected: 0, modules: [], errors: [] }]));
    this.#queue = queue;
  }

  onInit(vitest: Vitest): void {
    this.#vitest = vitest;
  }

  onTestRunStart(specifications: ReadonlyArray<TestSpecification>): void {
    for (const specification of specifications) {
      const project = this.#projectOf(specification.moduleId);
      if (project !== undefined) project.expected += 1;
    }
  }

  onUserConsoleLog(log: { content: string; taskId?: string }): void {
    const file = log.taskId === undefined ? undefined : this.#vitest?.state.idMap.get(log.taskId)?.file.filepath;
    if (file === undefined) return;
    this.#logs.set(file, [...(this.#logs.get(file) ?? []), log.content]);
  }

  onTestModuleQueued(module: TestModule): void {
    this.#queuedAt.set(module.moduleId, performance.now() - this.#startedAt);
  }

  onTestModuleEnd(module: TestModule): void {
    this.#timings.push(this.#timingOf(module));
    const root = this.#rootOf(module.moduleId);
    const project = root === undefined ? undefined : this.#projects.get(root);
    if (root === undefined || project === undefined) return;
    project.modules.push(this.#reportedModule(module));
    const unfinished = [...this.#projects].filter(
      ([other, { expected, modules }]) => !this.#reported.has(other) && modules.length < expected,
    );
    if (project.modules.length >= project.expected && unfinished.length > 0) this.#report(root);
  }

  onTestRunEnd(_modules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>): void {
    for (const error of unhandledErrors) {
      if (this.#attributed.has(error)) continue;
      const root = this.#ownerOf(error);
      const owner = root === undefined || this.#reported.has(root) ? undefined : this.#projects.get(root);
      // An error of no file, or of a project already reported, fails the projects still open.
      for (const project of owner === undefined ? this.#unreported() : [owner])
        project.errors.push(reportedError(error));
    }
    for (const root of this.#projects.keys()) if (!this.#reported.has(root)) this.#report(root);
  }

  /** The run failed as a whole (a config that does not load): every project not yet reported fails with it. */
  failRun(message: string): void {
    for (const project of this.#unreported()) project.errors.push({ message });
    for (const root of this.#projects.keys()) if (!this.#reported.has(root)) this.#report(root);
  }

  #unreported() {
    return [...this.#projects].filter(([root]) => !this.#reported.has(root)).map(([, project]) => project);
  }

  #report(root: string): void {
    const project = this.#projects.get(root);
    if (project === undefined || this.#reported.has(root)) return;
    this.#reported.add(root);
    for (const error of (this.#vitest?.state.getUnhandledErrors() ?? []) as SerializedError[]) {
      if (this.#ownerOf(error) !== root || this.#attributed.has(error)) continue;
      this.#attributed.add(error);
      project.errors.push(reportedError(error));
    }
    const { success, output } = formatProjectReport(this.#names.get(root) ?? root, project.modules, project.errors);
    this.#queue.push({ root, success, output });
  }

  #reportedModule(module: TestModule): ReportedModule {
    const tests = [...module.children.allTests()].map((test) => {
      const result = test.result();
      return {
        name: test.fullName,
        state: result.state,
        durationMs: test.diagnostic()?.duration ?? 0,
        errors: (result.errors ?? []).map(reportedError),
      };
    });
    return {
      file: relative(join(this.#workspaceRoot, this.#rootOf(module.moduleId) ?? ''), module.moduleId),
      durationMs: module.diagnostic().duration,
      tests,
      // A hook of a describe block that failed (beforeAll) skips its tests and leaves its error on the suite.
      errors: [...module.errors(), ...[...module.children.allSuites()].flatMap((suite) => suite.errors())].map(
        reportedError,
      ),
      logs: this.#logs.get(module.moduleId) ?? [],
    };
  }

  /** What each file that ended cost, in the order they ended. */
  timings(): readonly FileTiming[] {
    return this.#timings;
  }

  #timingOf(module: TestModule): FileTiming {
    const diagnostic = module.diagnostic();
    const tests = [...module.children.allTests()];
    return {
      file: this.#relative(module.moduleId),
      queuedAtMs: Math.round(this.#queuedAt.get(module.moduleId) ?? 0),
      endedAtMs: Math.round(performance.now() - this.#startedAt),
      prepareMs: Math.round(diagnostic.prepareDuration + diagnostic.environmentSetupDuration),
      collectMs: Math.round(diagnostic.collectDuration + diagnostic.setupDuration),
      runMs: Math.round(diagnostic.duration),
      tests: tests.length,
      failed: tests.filter((test) => test.result().state === 'failed').length,
    };
  }

  /** The project of the file that was running when the error was thrown, if vitest knew it. */
  #ownerOf(error: SerializedError): string | undefined {
    const path = error['VITEST_TEST_PATH'];
    return typeof path === 'string' ? this.#rootOf(path) : undefined;
  }

  #projectOf(file: string) {
    return this.#projects.get(this.#rootOf(file) ?? '');
  }

  /** The innermost project root holding the file. */
  #rootOf(file: string): string | undefined {
    return innermostRoot(this.#projects.keys(), this.#relative(file));
  }

  #relative(file: string): string {
    return relative(this.#workspaceRoot, file);
  }
}

function reportedError(error: SerializedError): ReportedError {
  return {
    message: error.message,
    stack: error.stack,
    diff: typeof error['diff'] === 'string' ? error['diff'] : undefined,
  };
}

function describe(error: unknown): string {
  if (error instanceof AggregateError) return [error.message, ...error.errors.map(describe)].join('\n');
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
