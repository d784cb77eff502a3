import type { TargetConfiguration } from '@nx/devkit';
import { inferTarget } from '../project-targets';

/**
 * Every project (a folder with a package.json and a tsconfig.json) gets a `lint` target: `@pi/workspace:check` running ESLint, cached
 * on its files, the workspace's ESLint config and rules, and its dependencies' package.json (their tags decide what
 * the module-boundary rule allows it).
 */
export const createNodesV2 = inferTarget('tsconfig.json', 'lint', lintTarget);

function lintTarget(): TargetConfiguration {
  return {
    executor: '@pi/workspace:check',
    options: { check: 'lint' },
    cache: true,
    inputs: [
      'default',
      '{workspaceRoot}/eslint.config.mjs',
      '{workspaceRoot}/tools/eslint/**/*',
      '^{projectRoot}/package.json',
      { externalDependencies: ['eslint', '@nx/eslint-plugin', 'typescript-eslint'] },
    ],
    metadata: { description: "Lints the project with the workspace's ESLint config (one process for a whole run)." },
  };
}
