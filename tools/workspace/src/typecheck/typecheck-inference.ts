import type { TargetConfiguration } from '@nx/devkit';
import { inferTarget } from '../project-targets';

/**
 * Every project with a tsconfig.json (beside its package.json) gets a `typecheck` target: `@pi/workspace:check` running `tsc --build`,
 * after its dependencies' (their declarations are its inputs), cached with its declarations and build info in
 * `dist/out-tsc/<project root>`, and with the TypeScript sync generator that keeps its `references` equal to its
 * dependencies. The root tsconfig.json (the solution) is no project.
 */
export const createNodesV2 = inferTarget('tsconfig.json', 'typecheck', typecheckTarget);

function typecheckTarget(): TargetConfiguration {
  return {
    executor: '@pi/workspace:check',
    options: { check: 'typecheck' },
    dependsOn: ['^typecheck'],
    cache: true,
    inputs: [
      'default',
      { dependentTasksOutputFiles: '**/*.{d.ts,tsbuildinfo}', transitive: true },
      // The compiler that checks it: a new TypeScript may find what the old one passed.
      { externalDependencies: ['typescript-native'] },
    ],
    outputs: ['{workspaceRoot}/dist/out-tsc/{projectRoot}'],
    syncGenerators: ['@nx/js:typescript-sync'],
    metadata: { description: 'Type-checks the project (tsc --build of its tsconfig.json, declarations only).' },
  };
}
