import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CURRENT_BUNDLES_VARIABLE } from '@pi/connection-files/launch';
import type { ProjectOutcome } from '../project-batch';
import type { ProjectTestOptions } from '../test/project-tests';

/** The tool that bundles the programs; a workspace without it (a test fixture) starts them from source. */
const BUNDLER = 'tools/app-bundle/bin/bundle-apps.mjs';

type RunTests = (
  workspaceRoot: string,
  roots: readonly string[],
  options: ProjectTestOptions,
) => AsyncIterable<ProjectOutcome>;

/**
 * The tests of these projects after the program bundles they start are current (the bundler rebuilds only what is
 * stale). Bundling here rather than in a task the tests depend on keeps the tests in the batch the other checks run
 * in, so they start at once. A bundler that fails fails every project's tests with its output. Once bundled, the
 * tests' programs are told the bundles are current (`PI_CURRENT_BUNDLES`), so that each start skips checking every
 * source file again.
 */
export async function* testsWithBundles(
  workspaceRoot: string,
  roots: readonly string[],
  options: ProjectTestOptions,
  runTests: RunTests,
): AsyncGenerator<ProjectOutcome> {
  const bundler = join(workspaceRoot, BUNDLER);
  if (!existsSync(bundler)) {
    yield* runTests(workspaceRoot, roots, options);
    return;
  }
  const failure = await bundle(workspaceRoot, bundler);
  if (failure !== undefined) {
    for (const root of roots) yield { root, success: false, output: `Bundling the programs failed:\n${failure}` };
    return;
  }
  const outer = process.env[CURRENT_BUNDLES_VARIABLE];
  process.env[CURRENT_BUNDLES_VARIABLE] = join(workspaceRoot, 'dist', 'apps');
  try {
    yield* runTests(workspaceRoot, roots, options);
  } finally {
    if (outer === undefined) delete process.env[CURRENT_BUNDLES_VARIABLE];
    else process.env[CURRENT_BUNDLES_VARIABLE] = outer;
  }
}

/** What the bundler printed when it failed; nothing when the bundles are current. */
function bundle(cwd: string, bundler: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bundler], { cwd, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve(error === null ? undefined : `${stdout}${stderr}` || error.message),
    );
  });
}
