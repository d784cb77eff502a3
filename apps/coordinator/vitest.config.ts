import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: '@pi/coordinator',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // One throwaway PostgreSQL for the run (or the reason there is none, printed): the replica suite needs it.
    globalSetup: ['./test/postgres-setup.ts'],
  },
});
