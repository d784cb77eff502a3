import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { CreateNodesV2, TargetConfiguration } from '@nx/devkit';

/**
 * Every project with a tsconfig.json (beside its package.json) gets a `typecheck` target: `@pi/workspace:typecheck`,
 * after its dependencies' (their declarations are its inputs), cached with its declarations and build info in
 * `dist/out-tsc/<project root>`, and with the TypeScript sync generator that keeps its `references` equal to its
 * dependencies. The root tsconfig.json (the solution) is no project.
 */
export const createNodesV2: CreateNodesV2 = [
  '**/tsconfig.json',
  (configFiles, _options, context) =>
    configFiles.flatMap((configFile) => {
      const projectRoot = dirname(configFile);
      if (projectRoot === '.' || !existsSync(join(context.workspaceRoot, projectRoot, 'package.json'))) return [];
      return [[configFile, { projects: { [projectRoot]: { targets: { typecheck: typecheckTarget() } } } }]];
    }),
];

function typecheckTarget(): TargetConfiguration {
  return {
    executor: '@pi/workspace:typecheck',
    dependsOn: ['^typecheck'],
    cache: true,
    inputs: ['default', { dependentTasksOutputFiles: '**/*.{d.ts,tsbuildinfo}', transitive: true }],
    outputs: ['{workspaceRoot}/dist/out-tsc/{projectRoot}'],
    syncGenerators: ['@nx/js:typescript-sync'],
    metadata: { description: 'Type-checks the project (tsc --build of its tsconfig.json, declarations only).' },
  };
}
