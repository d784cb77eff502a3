import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: '@pi/workspace', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] },
});
