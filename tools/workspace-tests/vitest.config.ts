import { defineProject } from 'vitest/config';

// These tests run the real Nx and oxlint CLIs in temp workspaces: slow on a 2-core CI machine, hence the budgets.
export default defineProject({
  test: {
    name: '@pi/workspace-tests',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 300_000,
  },
});
