import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: '@pi/git-session',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 20_000,
  },
});
