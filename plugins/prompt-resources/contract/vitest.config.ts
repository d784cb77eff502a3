import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: '@pi/prompt-resources', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] },
});
