import { defineProject } from 'vitest/config';

// Every test starts a real pi-session and pi-tui in a pty: generous timeouts (CI has 2 cores), never asserted on.
export default defineProject({
  test: {
    name: '@pi/tui-pty-e2e',
    include: ['src/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
