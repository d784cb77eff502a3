import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: '@pi/accounts-session', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] },
});
