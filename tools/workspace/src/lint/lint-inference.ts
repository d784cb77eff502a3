import type { TargetConfiguration } from '@nx/devkit';
import { inferTarget } from '../project-targets';

/**
 * Every project (a folder with a package.json and a tsconfig.json) gets a `lint` target: `@pi/workspace:check` running
 * oxlint, cached on its files, the workspace's .oxlintrc.json and its own rules, and its dependencies' package.json
 * (their tags decide what the module-boundary rule allows it).
 */
export const createNodesV2 = inferTarget('tsconfig.json', 'lint', lintTarget);

function lintTarget(): TargetConfiguration {
  return {
    executor: '@pi/workspace:check',
    options: { check: 'lint' },
    cache: true,
    inputs: [
      'default',
      '{workspaceRoot}/.oxlintrc.json',
      '{workspaceRoot}/tools/workspace/src/lint/*.js',
      '^{projectRoot}/package.json',
      { externalDependencies: ['oxlint', '@nx/eslint-plugin'] },
    ],
    metadata: {
      description: "Lints the project with the workspace's .oxlintrc.json (one oxlint run for a whole run).",
    },
  };
}
