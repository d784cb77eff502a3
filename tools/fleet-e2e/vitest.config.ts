import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: '@pi/fleet-e2e',
    include: ['src/**/*.test.ts'],
    testTimeout: 60_000,
    // One throwaway PostgreSQL for the run (or the reason there is none, printed): the replica suites need it.
    globalSetup: ['./src/postgres-setup.ts'],
  },
});
