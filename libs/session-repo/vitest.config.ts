import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: '@pi/session-repo',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // One throwaway PostgreSQL for the run (or the reason there is none, printed): the contract runs on both stores.
    globalSetup: ['./test/postgres-setup.ts'],
  },
});
