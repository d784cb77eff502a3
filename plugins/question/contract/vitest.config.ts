import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: '@pi/question', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] },
});
