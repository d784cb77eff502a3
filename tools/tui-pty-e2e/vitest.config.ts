import { defineProject } from 'vitest/config';

// Every test starts real `node` + tsx processes in a pty: generous timeouts (CI has 2 cores), never asserted on.
export default defineProject({
  test: {
    name: '@pi/tui-pty-e2e',
    include: ['src/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 60_000,
    // One file at a time: each test runs a session and a TUI, two tsx processes that compete for the two cores.
    fileParallelism: false,
  },
});
