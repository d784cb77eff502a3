import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: '@pi/workspace-tests', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] },
});
