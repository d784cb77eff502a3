import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { CreateNodesV2, TargetConfiguration } from '@nx/devkit';

/**
 * Every project (a folder with a package.json and a tsconfig.json) gets a `lint` target: `@pi/workspace:lint`, cached
 * on its files, the workspace's ESLint config and rules, and its dependencies' package.json (their tags decide what
 * the module-boundary rule allows it).
 */
export const createNodesV2: CreateNodesV2 = [
  '**/tsconfig.json',
  (configFiles, _options, context) =>
    configFiles.flatMap((configFile) => {
      const projectRoot = dirname(configFile);
      if (projectRoot === '.' || !existsSync(join(context.workspaceRoot, projectRoot, 'package.json'))) return [];
      return [[configFile, { projects: { [projectRoot]: { targets: { lint: lintTarget() } } } }]];
    }),
];

function lintTarget(): TargetConfiguration {
  return {
    executor: '@pi/workspace:lint',
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
