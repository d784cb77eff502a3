import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: '@pi/accounts', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] },
});
