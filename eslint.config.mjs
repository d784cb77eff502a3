import nx from '@nx/eslint-plugin';
import { boundaryRule, productConstraints, testConstraints } from './tools/eslint/module-boundaries.mjs';

const testFiles = [
  '**/*.test.ts',
  '**/examples/**/*.ts',
  '**/test/**/*.ts',
  '**/testing/**/*.ts',
  '**/testing.ts',
  '**/vitest.config.ts',
];

export default [
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  {
    ignores: [
      '**/node_modules',
      '**/dist',
      '**/out',
      '**/.nx',
      '**/*.timestamp-*',
      'tools/workspace-tests/fixtures/**',
    ],
  },
  {
    files: ['**/*.ts', '**/*.mts'],
    rules: {
      '@nx/enforce-module-boundaries': boundaryRule(productConstraints),
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-syntax': [
        'error',
        { selector: 'ExportAllDeclaration', message: 'Export by name from a public index (no export *).' },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    rules: {
      '@nx/enforce-module-boundaries': boundaryRule(productConstraints),
    },
  },
  {
    files: testFiles,
    rules: {
      '@nx/enforce-module-boundaries': boundaryRule(testConstraints),
    },
  },
];
