import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { CreateNodesV2, TargetConfiguration } from '@nx/devkit';

/**
 * Every project with a `vitest.config.ts` (beside its package.json) gets a `test` target: `@pi/workspace:test`,
 * cached on its files and its dependencies' production files, after the program bundles its tests start are built.
 */
export const createNodesV2: CreateNodesV2 = [
  '**/vitest.config.ts',
  (configFiles, _options, context) =>
    configFiles.flatMap((configFile) => {
      const projectRoot = dirname(configFile);
      if (projectRoot === '.' || !existsSync(join(context.workspaceRoot, projectRoot, 'package.json'))) return [];
      const bundles = existsSync(join(context.workspaceRoot, BUNDLE_TOOL, 'package.json'));
      return [[configFile, { projects: { [projectRoot]: { targets: { test: testTarget(bundles) } } } }]];
    }),
];

/** The tool that bundles the programs; a workspace without it (a test fixture) starts them from source. */
const BUNDLE_TOOL = 'tools/app-bundle';

function testTarget(bundles: boolean): TargetConfiguration {
  return {
    executor: '@pi/workspace:test',
    cache: true,
    inputs: ['default', '^production', { externalDependencies: ['vitest'] }],
    // Tests start the programs from their bundles when those are current; building them first keeps them so.
    dependsOn: bundles ? [{ projects: ['@pi/app-bundle'], target: 'bundle' }] : [],
    metadata: { description: "Runs the project's tests (vitest; one instance for a whole run)." },
  };
}
