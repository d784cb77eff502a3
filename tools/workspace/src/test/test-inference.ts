import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { TargetConfiguration } from '@nx/devkit';
import { inferTarget } from '../project-targets';

/**
 * Every project with a `vitest.config.ts` (beside its package.json) gets a `test` target: `@pi/workspace:test`,
 * cached on its files and its dependencies' production files, after the program bundles its tests start are built.
 */
export const createNodesV2 = inferTarget('vitest.config.ts', 'test', testTarget);

/** The tool that bundles the programs; a workspace without it (a test fixture) starts them from source. */
const BUNDLE_TOOL = 'tools/app-bundle';

function testTarget(workspaceRoot: string): TargetConfiguration {
  const bundles = existsSync(join(workspaceRoot, BUNDLE_TOOL, 'package.json'));
  return {
    executor: '@pi/workspace:test',
    cache: true,
    inputs: ['default', '^production', { externalDependencies: ['vitest'] }],
    // Tests start the programs from their bundles when those are current; building them first keeps them so.
    dependsOn: bundles ? [{ projects: ['@pi/app-bundle'], target: 'bundle' }] : [],
    metadata: { description: "Runs the project's tests (vitest; one instance for a whole run)." },
  };
}
