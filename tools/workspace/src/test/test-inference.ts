import type { TargetConfiguration } from '@nx/devkit';
import { inferTarget } from '../project-targets';

/**
 * Every project with a `vitest.config.ts` (beside its package.json) gets a `test` target: `@pi/workspace:check`
 * running vitest, cached on its files and its dependencies' production files. The programs its tests start are
 * bundled by the check itself (see `testsWithBundles`), not by a task it depends on, so the tests join the batch the
 * other checks of a run share.
 */
export const createNodesV2 = inferTarget('vitest.config.ts', 'test', testTarget);

function testTarget(): TargetConfiguration {
  return {
    executor: '@pi/workspace:check',
    options: { check: 'test' },
    cache: true,
    inputs: ['default', '^production', { externalDependencies: ['vitest'] }],
    metadata: { description: "Runs the project's tests (vitest; one instance for a whole run)." },
  };
}
